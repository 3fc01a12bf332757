#!/usr/bin/env bash
# Xournal++ (Debian 12: 1.1.x, GTK 3) as a real app in the desktop guest (issue 42): it gets the
# pen from the display server, and saves its strokes itself to a .xopp file, which
# scripts/desktop/xournal-results.py reads back and judges.
#
# Usage (one session at a time per STATE directory):
#   xournal-session.sh start STATE OUT.xopp WIDTHxHEIGHT   start on $DISPLAY (X11) or $WAYLAND_DISPLAY
#   xournal-session.sh save  STATE [COPY.xopp]             Ctrl+S; wait until OUT.xopp is written whole
#   xournal-session.sh key   STATE COMBO                   one key combination (xdotool's names: ctrl+shift+e)
#   xournal-session.sh quit  STATE                         Ctrl+Q; wait until the app has exited
# `start` prints `xournal-ready {json}` (pid, backend, page size) once the window is mapped; `save`
# prints `xournal-saved {json}` (the file's size, strokes); both exit 1 with the reason otherwise.
#
# Why this way:
# - A fresh config (HOME, XDG_* under STATE): no first-run state, the pen tool (size MEDIUM),
#   pressure sensitivity on, no stabilizer, no stroke filter, no grid snapping, no autosave, no
#   menubar, toolbars or sidebar, so that the window's whole area is the page (a pen on a toolbar
#   would press its buttons), and the window the size of the output at its origin.
# - The app opens OUT.xopp, a blank page of the output's size in points, written here: its own
#   Ctrl+S then saves to that path without a file dialog (the dialog is the fragile part of a save).
# - Ctrl+0 sets the zoom to 100 % (1 pt = 1 px at the config's 72 dpi) after the window is up
#   (Xournal++ opens a document fitted to the window's width); the judge fits the map anyway and
#   reports the zoom it finds.
# - Keys (XOURNAL_KEYS, below): xdotool on X11, a uinput keyboard on Wayland. GTK handles them in
#   order with the pen's events; the display server queues them after the pen events it has read.
# - `save` first waits for the title's unsaved mark: Xournal++ adds a stroke to the document at its
#   release, so the mark says a stroke is whole (all of it, for a trace of one stroke) before Ctrl+S.
# - Every wait is on a condition (the window mapped, the title's unsaved mark, the file parsing
#   whole, the process gone); XOURNAL_WAIT_SECONDS (default 120) only ends a broken run.
set -uo pipefail

BOUND=${XOURNAL_WAIT_SECONDS:-120}
die() { echo "xournal-session: $*" >&2; exit 1; }
# await CMD...: CMD until it succeeds, at most BOUND seconds.
await() {
    local cap=$((SECONDS + BOUND))
    until "$@"; do [ $SECONDS -lt $cap ] || return 1; sleep 0.2; done
}
backend() { if [ -n "${WAYLAND_DISPLAY:-}" ]; then echo wayland; elif [ -n "${DISPLAY:-}" ]; then echo x11; else echo none; fi; }

# The window's title (Xournal++ puts "*" before the file name while it has unsaved changes).
title() {
    local st=$1
    case $(cat "$st/backend") in
        x11) xdotool getwindowname "$(cat "$st/window")" 2>/dev/null ;;
        wayland) swaymsg -t get_tree -r 2>/dev/null | python3 -c '
import json, sys
def walk(n):
    if n.get("pid") == int(sys.argv[1]):
        print(n.get("name") or ""); sys.exit(0)
    for c in n.get("nodes", []) + n.get("floating_nodes", []):
        walk(c)
walk(json.load(sys.stdin))' "$(cat "$st/pid")" ;;
    esac
}
# key STATE COMBO: one key combination to the app's window (COMBO as xdotool names it: ctrl+s).
key() {
    local st=$1 combo=$2
    case $(cat "$st/keys") in
        uinput)
            local before; before=$(wc -l <"$st/keys.acks")
            echo "$combo" >"$st/keys.fifo"
            typed() { [ "$(wc -l <"$st/keys.acks")" -gt "$before" ] || ! kill -0 "$(cat "$st/keyboard")" 2>/dev/null; }
            await typed && ! tail -n 1 "$st/keys.acks" | grep -q '^error:' ;;
        xdotool) xdotool key --clearmodifiers --window "$(cat "$st/window")" "$combo" 2>>"$st/xdotool.err" ;;
        wtype)
            # wtype: each modifier pressed (-M), the key (-k), the modifiers released (-m).
            local parts args=() m
            IFS=+ read -ra parts <<<"$combo"
            for m in "${parts[@]:0:${#parts[@]}-1}"; do args+=(-M "$m"); done
            args+=(-k "${parts[-1]}")
            for m in "${parts[@]:0:${#parts[@]}-1}"; do args+=(-m "$m"); done
            wtype "${args[@]}" ;;
    esac
}
# The app runs (an exited one that no parent has reaped yet, a zombie, does not).
alive() { local p; p=$(cat "$1/pid"); [ -r "/proc/$p/stat" ] && [ "$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -c1)" != Z ]; }

# A blank one-page document of W x H points (gzip XML, Xournal++'s .xopp).
blank_xopp() {
    python3 - "$1" "$2" "$3" <<'EOF'
import gzip, sys
path, w, h = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
doc = ('<?xml version="1.0" standalone="no"?>\n<xournal creator="penkit" fileversion="4">\n'
       '<title>penkit desktop guest</title>\n'
       '<page width="%.2f" height="%.2f"><background type="solid" color="#ffffffff" style="plain"/>'
       '<layer/></page>\n</xournal>\n' % (w, h))
with gzip.open(path, "wt") as f:
    f.write(doc)
EOF
}

# Xournal++'s settings: only what differs from its defaults, or what this session relies on.
write_settings() {
    local dir=$1 w=$2 h=$3
    mkdir -p "$dir"
    cat >"$dir/settings.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<settings>
  <property name="pressureSensitivity" value="true"/>
  <property name="pressureGuessing" value="false"/>
  <property name="displayDpi" value="72"/>
  <property name="mainWndWidth" value="$w"/>
  <property name="mainWndHeight" value="$h"/>
  <property name="maximized" value="true"/>
  <property name="showToolbar" value="false"/>
  <property name="showSidebar" value="false"/>
  <property name="menubarVisible" value="false"/>
  <property name="scrollbarHideType" value="both"/>
  <property name="stylusCursorType" value="dot"/>
  <property name="autosaveEnabled" value="false"/>
  <property name="autoloadMostRecent" value="false"/>
  <property name="snapGrid" value="false"/>
  <property name="snapRotation" value="false"/>
  <property name="strokeFilterEnabled" value="false"/>
  <property name="numIgnoredStylusEvents" value="0"/>
  <property name="inputSystemTPCButton" value="false"/>
  <property name="inputSystemDrawOutsideWindow" value="true"/>
  <property name="touchDrawing" value="false"/>
  <property name="zoomGesturesEnabled" value="false"/>
  <property name="stabilizerAveragingMethod" value="0"/>
  <property name="stabilizerPreprocessor" value="0"/>
  <data name="tools">
    <attribute name="current" type="string" value="pen"/>
    <data name="pen">
      <attribute name="color" type="hex" value="000000"/>
      <attribute name="drawingType" type="string" value="default"/>
      <attribute name="fill" type="int" value="0"/>
      <attribute name="size" type="string" value="MEDIUM"/>
      <attribute name="style" type="string" value="plain"/>
    </data>
    <data name="eraser">
      <attribute name="drawingType" type="string" value="default"/>
      <attribute name="size" type="string" value="MEDIUM"/>
      <attribute name="type" type="string" value="default"/>
    </data>
  </data>
</settings>
EOF
}

start() {
    local st=$1 out=$2 size=$3 w h
    [[ $size =~ ^([0-9]+)x([0-9]+)$ ]] || die "start: the size must be WIDTHxHEIGHT, not '$size'"
    w=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
    local be; be=$(backend)
    [ "$be" != none ] || die "start: neither WAYLAND_DISPLAY nor DISPLAY is set"
    command -v xournalpp >/dev/null || die "start: xournalpp is not installed (Debian: xournalpp)"
    case $be in
        x11) command -v xdotool >/dev/null || die "start: xdotool is not installed" ;;
        wayland) command -v swaymsg >/dev/null || die "start: swaymsg is needed on Wayland (the window's title)" ;;
    esac
    mkdir -p "$st" && st=$(cd "$st" && pwd)
    # Nothing of an earlier session in STATE may answer for this one.
    rm -rf "$st/home" "$st"/{window,pid,keyboard,keys,keys.fifo,keys.acks,keys.out,backend,out} && mkdir -p "$st/home"
    write_settings "$st/home/.config/xournalpp" "$w" "$h"
    blank_xopp "$out" "$w" "$h" || die "start: cannot write $out"
    echo "$be" >"$st/backend"
    echo "$(cd "$(dirname "$out")" && pwd)/$(basename "$out")" >"$st/out"
    # How keys reach the app (XOURNAL_KEYS): uinput (a kernel keyboard the display server reads
    # with its own libinput and keymap, scripts/desktop/uinput-keys.py; the default on Wayland
    # where /dev/uinput is writable), xdotool (XTest; the default on X11), or wtype (Wayland's
    # virtual-keyboard protocol: GTK 3.24 gets its keys, but its accelerators, Ctrl+S among them,
    # did not fire on them on sway 1.7, so a Wayland session without uinput cannot save).
    local keys=${XOURNAL_KEYS:-}
    if [ -z "$keys" ]; then
        if [ "$be" = x11 ]; then keys=xdotool; elif [ -w /dev/uinput ]; then keys=uinput; else keys=wtype; fi
    fi
    echo "$keys" >"$st/keys"
    case $keys in
        uinput)
            # Made before the app starts, held for the session, ended by `quit`.
            local name="penkit desktop keyboard $$"
            rm -f "$st/keys.fifo" && mkfifo "$st/keys.fifo" && : >"$st/keys.acks"
            /usr/bin/python3 "$(dirname "$0")/uinput-keys.py" "$st/keys.fifo" "$st/keys.acks" "$name" >"$st/keys.out" 2>&1 &
            echo $! >"$st/keyboard"
            made() { grep -qs '^uinput-keys-ready: ' "$st/keys.out" || ! kill -0 "$(cat "$st/keyboard")" 2>/dev/null; }
            await made && grep -qs '^uinput-keys-ready: ' "$st/keys.out" || die "start: no uinput keyboard: $(tail -3 "$st/keys.out")"
            server_has() {
                case $be in
                    x11) xinput list --name-only 2>/dev/null | grep -qxF "$name" ;;
                    wayland) swaymsg -t get_inputs -r 2>/dev/null | grep -qF "\"$name\"" ;;
                esac
            }
            await server_has || die "start: the display server never listed the keyboard \"$name\""
            ;;
        wtype)
            command -v wtype >/dev/null || die "start: wtype is not installed"
            # A virtual keyboard held for the session, made before the app starts: a seat with no
            # keyboard has one only while a wtype runs, and its keys go out before GTK has bound
            # it. With this one GTK binds the keyboard at its start. Ended by `quit`.
            wtype -s 86400000 -k Shift_L >/dev/null 2>&1 &
            echo $! >"$st/keyboard"
            has_keyboard() { swaymsg -t get_seats -r 2>/dev/null | python3 -c 'import json, sys; sys.exit(not any(s["capabilities"] & 2 for s in json.load(sys.stdin)))'; }
            await has_keyboard || die "start: the seat got no keyboard from wtype within $BOUND s"
            ;;
        xdotool) [ "$be" = x11 ] || die "start: xdotool keys need X11" ;;
        *) die "start: XOURNAL_KEYS is uinput, xdotool or wtype, not '$keys'" ;;
    esac
    # GDK_BACKEND pins GTK to the server under test (with both variables set it would pick Wayland).
    HOME=$st/home XDG_CONFIG_HOME=$st/home/.config XDG_CACHE_HOME=$st/home/.cache XDG_DATA_HOME=$st/home/.local/share \
        GDK_BACKEND=$be NO_AT_BRIDGE=1 xournalpp "$(cat "$st/out")" >"$st/xournalpp.log" 2>&1 &
    echo $! >"$st/pid"
    local pid; pid=$(cat "$st/pid")
    case $be in
        x11)
            mapped() { local w; w=$(xdotool search --all --onlyvisible --pid "$pid" --name 'Xournal\+\+' 2>/dev/null | head -1); [ -n "$w" ] && echo "$w" >"$st/window" || ! alive "$st"; }
            await mapped; alive "$st" || die "start: xournalpp exited: $(tail -5 "$st/xournalpp.log")"
            [ -s "$st/window" ] || die "start: no Xournal++ window within $BOUND s"
            # No window manager on the bare server: the window goes to the origin, the output's size.
            xdotool windowmove --sync "$(cat "$st/window")" 0 0 windowsize --sync "$(cat "$st/window")" "$w" "$h" \
                windowfocus --sync "$(cat "$st/window")" 2>/dev/null || true
            ;;
        wayland)
            mapped() { [ -n "$(title "$st")" ] || ! alive "$st"; }
            await mapped; alive "$st" || die "start: xournalpp exited: $(tail -5 "$st/xournalpp.log")"
            ;;
    esac
    # The title names the opened file once the document is loaded.
    loaded() { title "$st" | grep -qF "$(basename "$out" .xopp)" || ! alive "$st"; }
    await loaded || die "start: the window never named $(basename "$out"): '$(title "$st")'"
    key "$st" ctrl+0 || die "start: could not send Ctrl+0"
    printf 'xournal-ready {"pid": %s, "backend": "%s", "page": [%s, %s], "title": "%s"}\n' "$pid" "$be" "$w" "$h" "$(title "$st")"
}

# The file parses whole: gzip to its end and the XML's closing tag.
complete() { python3 -c '
import gzip, sys, xml.etree.ElementTree as ET
try:
    root = ET.fromstring(gzip.open(sys.argv[1]).read())
except Exception:
    sys.exit(1)
print(len(root.findall(".//stroke")))' "$1"; }

save() {
    local st=$1 copy=${2:-} out before
    [ -s "$st/pid" ] || die "save: no session in $st"
    alive "$st" || die "save: xournalpp is not running: $(tail -5 "$st/xournalpp.log")"
    out=$(cat "$st/out")
    before=$(stat -c %Y.%s "$out" 2>/dev/null || echo none)
    # Ctrl+S of an unchanged document writes nothing: the unsaved mark says there is something.
    dirty() { title "$st" | grep -q '^\*' || ! alive "$st"; }
    await dirty || die "save: the document has no unsaved change to save (title '$(title "$st")')"
    # Nanosecond mtime and size: a save within the same second still changes one of them, and the
    # title loses its mark only after the save job has written and closed the file.
    local t0; t0=$(stat -c %y "$out")
    key "$st" ctrl+s || die "save: could not send Ctrl+S"
    saved() { { ! title "$st" | grep -q '^\*' && [ "$(stat -c %y "$out")" != "$t0" ] && complete "$out" >/dev/null; } || ! alive "$st"; }
    await saved || die "save: $out was not saved whole within $BOUND s (title '$(title "$st")')"
    alive "$st" || die "save: xournalpp exited: $(tail -5 "$st/xournalpp.log")"
    local strokes; strokes=$(complete "$out")
    [ -z "$copy" ] || cp "$out" "$copy"
    printf 'xournal-saved {"path": "%s", "bytes": %s, "strokes": %s}\n' "$out" "$(stat -c %s "$out")" "$strokes"
}

quit() {
    local st=$1 status=0
    [ -s "$st/pid" ] || die "quit: no session in $st"
    if alive "$st"; then
        key "$st" ctrl+q
        gone() { ! alive "$st"; }
        if ! await gone; then
            kill "$(cat "$st/pid")" 2>/dev/null
            echo "xournal-session: quit: xournalpp did not exit on Ctrl+Q within $BOUND s (ended; unsaved changes or a dialog?)" >&2
            status=1
        fi
    fi
    if [ -s "$st/keyboard" ]; then
        [ "$(cat "$st/keys")" = uinput ] && echo quit >"$st/keys.fifo"
        ended() { ! kill -0 "$(cat "$st/keyboard")" 2>/dev/null; }
        [ "$(cat "$st/keys")" = uinput ] && await ended
        kill "$(cat "$st/keyboard")" 2>/dev/null; rm -f "$st/keyboard"
    fi
    return $status
}

case ${1:-} in
    start) [ $# -eq 4 ] || die "usage: $0 start STATE OUT.xopp WIDTHxHEIGHT"; start "$2" "$3" "$4" ;;
    save) [ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 save STATE [COPY.xopp]"; save "$2" "${3:-}" ;;
    key) [ $# -eq 3 ] || die "usage: $0 key STATE COMBO"; [ -s "$2/pid" ] || die "key: no session in $2"; key "$2" "$3" ;;
    quit) [ $# -eq 2 ] || die "usage: $0 quit STATE"; quit "$2" ;;
    *) die "usage: $0 start|save|key|quit STATE ..." ;;
esac
