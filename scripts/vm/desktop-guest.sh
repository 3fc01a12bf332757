#!/usr/bin/env bash
# Runs inside the VM (scripts/vm/desktop.sh). Usage: desktop-guest.sh BIN_DIR OUT_DIR
# A real display server reads the input devices with its own libinput, and a real app logs the
# pen it gets through its own API:
#   sway 1.7 (WLR_BACKENDS=headless,libinput, the pixman renderer, a seat from seatd) with
#   Chromium on Ozone Wayland showing scripts/desktop/pointer-log.html (every PointerEvent, with
#   its coalesced events, as a console line on Chromium's stderr).
# Each app runs twice, side by side in this one guest: path `virtual` (penkitd --virtual-tablet
# with the non-linear curve DESKTOP_CURVE; the app gets penkit's virtual tablet, the played one is
# grabbed) and path `direct` (no penkitd: the display server reads the played tablet itself).
# The trace is played through uinput by `penkit replay --uinput` (the real kernel), at
# DESKTOP_SPEED of its pace (0.25, as e2e's virtual tablet scenario, for the same reason: under
# emulation a descheduled reader falls behind until the kernel drops events).
# Each run's app log is judged on the host after the guest (scripts/vm/desktop.sh, with
# scripts/desktop/desktop-results.py): the guest only plays and logs, emulation's time goes there.
# Every wait is on a condition; DESKTOP_WAIT_SECONDS (default 900) only ends a broken run.
set -uo pipefail
main() {
BIN=$1 OUT=$2
. "$OUT/settings.sh"
PY=/usr/bin/python3   # Debian's, with python3-gi (a PATH python may not have it)
modprobe uinput
pgrep -x systemd-udevd >/dev/null || { echo "desktop: systemd-udevd is not running in the guest" >&2; exit 1; }
echo "guest: kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
status=0
: >"$OUT/failures.txt"; : >"$OUT/played.txt"
fail() { echo "desktop: FAIL: $*" >&2; echo "desktop: FAIL: $*" >>"$OUT/failures.txt"; status=1; }
# Each step's line says when it came (seconds since the guest booted): where a run's time goes.
say() { echo "desktop: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }
BOUND=${DESKTOP_WAIT_SECONDS:-900}
await() {
    local cap=$((SECONDS + BOUND))
    until "$@"; do [ $SECONDS -lt $cap ] || return 1; sleep 0.2; done
}
. "$(dirname "$0")/guest-wait.sh"
. "$(dirname "$0")/desktop-guest-tools.sh"
. "$(dirname "$0")/desktop-guest-xournal.sh"
node_in() { sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) ".*/\1/p' "$1" | head -n 1; }
openable() { [ -c "$1" ] && { : <"$1"; } 2>/dev/null; }
field() { awk -v k="$1=" '{ for (i = 1; i <= NF; i++) if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }'; }

RUN=/run/penkit-desktop
mkdir -p "$RUN" && chmod 0711 "$RUN"   # nobody (sway, the apps) must reach its own folders in it
# sway refuses to run as root, and an app need not: both run as nobody, with a runtime directory
# and a home of their own; seatd (root) opens the input devices for sway (libseat's seatd backend).
AS_USER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
export XDG_RUNTIME_DIR=$RUN/xdg HOME=$RUN/home
mkdir -p -m 0700 "$XDG_RUNTIME_DIR" "$HOME" && chown 65534:65534 "$XDG_RUNTIME_DIR" "$HOME"
# The display servers' libinput reads penkit's quirk for its virtual tablet (as the package
# installs it into /usr/share/libinput) beside Debian's: the guest sees the host's files read-only.
QUIRKS=$RUN/quirks
mkdir -p "$QUIRKS" && cp /usr/share/libinput/*.quirks libinput/70-penkit-virtual-tablet.quirks "$QUIRKS/"
export LIBINPUT_QUIRKS_DIR=$QUIRKS
SOCK=$RUN/penkitd.sock
printf '[tool pen]\npressure-curve = %s\n\n[tool eraser]\npressure-curve = %s\n' \
    "${DESKTOP_CURVE//,/, }" "${DESKTOP_CURVE//,/, }" >"$OUT/penkitd.conf"

# --- sway ---
cat >"$OUT/sway.conf" <<'CONF'
# One headless output; every window full screen on it, so that the page's coordinates are the
# output's. sway maps a tablet to the whole layout (here: this one output) unless told otherwise
# (`input type:tablet_tool map_to_output NAME`, docs/virtual-tablet.md).
default_border none
for_window [app_id=".*"] fullscreen enable
CONF
start_sway() {
    seatd -u nobody -g nogroup >"$OUT/seatd.log" 2>&1 &
    SEATD=$!
    seatd_up() { [ -S /run/seatd.sock ] || ! kill -0 $SEATD 2>/dev/null; }
    await seatd_up
    [ -S /run/seatd.sock ] || { fail "seatd did not start: $(tail -3 "$OUT/seatd.log")"; return 1; }
    WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman WLR_HEADLESS_OUTPUTS=1 LIBSEAT_BACKEND=seatd \
        WLR_LIBINPUT_NO_DEVICES=1 "${AS_USER[@]}" sway -c "$OUT/sway.conf" -d >"$OUT/sway.log" 2>&1 &
    SERVER=$!
    sway_up() { SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.*.sock 2>/dev/null | head -1); [ -n "$SWAYSOCK" ] || ! kill -0 $SERVER 2>/dev/null; }
    await sway_up
    [ -n "$SWAYSOCK" ] || { fail "sway did not start: $(grep -E '\[ERROR\]|error' "$OUT/sway.log" | tail -5)"; return 1; }
    export SWAYSOCK
    # The socket exists before sway answers on it.
    ipc_up() { swaymsg -t get_outputs >/dev/null 2>&1 || ! kill -0 $SERVER 2>/dev/null; }
    await ipc_up
    WAYLAND_DISPLAY=$(ls "$XDG_RUNTIME_DIR" | grep -E '^wayland-[0-9]+$' | head -1)
    OUTPUT_SIZE=$(swaymsg -t get_outputs -r | $PY -c 'import json,sys; o = json.load(sys.stdin)[0]; print("%dx%d" % (o["rect"]["width"], o["rect"]["height"]))')
    say "sway up (pid $SERVER, $WAYLAND_DISPLAY): output $OUTPUT_SIZE"
}
# The tablet-tool devices the display server has (names, one a line).
sway_tablets() { swaymsg -t get_inputs -r 2>/dev/null | $PY -c 'import json,sys; [print(d["name"]) for d in json.load(sys.stdin) if d["type"] == "tablet_tool"]' 2>/dev/null; }   # (sway's IPC may not answer while it is busy)

# --- Xorg (the dummy video driver, the libinput input driver) ---
# Xorg runs as root (it opens the devices itself through udev hotplug: the tablets reach it as
# Debian's 40-libinput.conf matches them); the app runs as nobody, allowed in by -ac.
cat >"$OUT/xorg.conf" <<'CONF'
# One 1280x720 screen from the dummy driver; input devices come from udev (AutoAddDevices) and go
# to the libinput driver (/usr/share/X11/xorg.conf.d/40-libinput.conf). The libinput driver maps a
# tablet to the whole screen unless told otherwise (docs/virtual-tablet.md).
Section "ServerFlags"
    Option "AutoAddDevices" "true"
    Option "AutoEnableDevices" "true"
    Option "DontVTSwitch" "true"
EndSection
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 16384
EndSection
Section "Monitor"
    Identifier "monitor"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "monitor"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Modes "1280x720"
        Virtual 1280 720
    EndSubSection
EndSection
CONF
# xorg_config_dir DRIVER: the xorg.conf.d this Xorg reads in place of /usr/share/X11/xorg.conf.d,
# as on a system where the tablets get DRIVER: libinput (Debian's 40-libinput.conf, without
# xf86-input-wacom's 70-wacom.conf: no wacom driver installed) or wacom (both, and penkit's
# xorg/75-penkit-virtual-tablet.conf, as the package installs it beside them).
xorg_config_dir() {
    local dir=$RUN/xorg.conf.d-$1
    rm -rf "$dir" && cp -r /usr/share/X11/xorg.conf.d "$dir"
    case $1 in
        libinput) rm -f "$dir/70-wacom.conf" ;;
        wacom) [ -e "$dir/70-wacom.conf" ] || { fail "xorg ($1): xf86-input-wacom's 70-wacom.conf is not installed"; return 1; }
               cp xorg/75-penkit-virtual-tablet.conf "$dir/" ;;
    esac
    echo "$dir"
}
# start_xorg DRIVER: Xorg with the tablets on DRIVER (xorg_config_dir), in a mount namespace of
# its own where that folder is /usr/share/X11/xorg.conf.d (the guest's / is the host's, read-only).
start_xorg() {
    local dir log=$OUT/Xorg-$1.log
    dir=$(xorg_config_dir "$1") || return 1
    XORG_DRIVER=$1
    unshare --mount --propagation private sh -c 'mount --bind "$0" /usr/share/X11/xorg.conf.d && exec "$@"' "$dir" \
        Xorg :1 -config "$OUT/xorg.conf" -logfile "$log" -ac -nolisten tcp -noreset -novtswitch -sharevts >"$OUT/Xorg-$1.out" 2>&1 &
    SERVER=$!
    export DISPLAY=:1
    x_up() { xdpyinfo >/dev/null 2>&1 || ! kill -0 $SERVER 2>/dev/null; }
    await x_up
    kill -0 $SERVER 2>/dev/null || { fail "Xorg did not start: $(cat "$OUT/Xorg-$1.out" 2>/dev/null | tail -2 | tr '\n' ' ') $(grep -E '\(EE\)' "$log" | tail -5 | tr '\n' ' ')"; return 1; }
    OUTPUT_SIZE=$(xdpyinfo | sed -n 's/^ *dimensions: *\([0-9]*x[0-9]*\) pixels.*/\1/p')
    say "Xorg up (pid $SERVER, $DISPLAY, tablets on the $1 driver): screen $OUTPUT_SIZE"
}
# The libinput driver adds one X device per tablet, and one more per tool once the tool has come
# into proximity ("... Pen (0)"); the wacom driver one per tool type ("... stylus", "... eraser",
# "... pad"): the tablets are the devices named after a tablet.
xorg_tablets() { xinput list --name-only 2>/dev/null | grep -F -e "$DEVICE_NAME" -e "penkit virtual tablet"; }

server_tablets() { "${SERVER_NAME}_tablets"; }
DEVICE_NAME=$(sed -n 's/^N: //p' "$TRACE" | head -1)

# --- Chromium ---
# start_chromium SERVER: Chromium on SERVER's display (sway: Ozone Wayland; xorg: X11), full size.
start_chromium() {
    local log=$OUT/chromium-$1.log platform
    case $1 in
        sway) platform=(--ozone-platform=wayland) ;;
        xorg) platform=(--ozone-platform=x11 --window-position=0,0 "--window-size=${OUTPUT_SIZE/x/,}") ;;
    esac
    rm -rf "$HOME/chromium-profile"
    # One process (--single-process): under emulation Chromium's helper processes took longer than
    # its 15 s connection timeout to start and were ended, and the page never loaded.
    WAYLAND_DISPLAY=${WAYLAND_DISPLAY:-} DISPLAY=${DISPLAY:-} "${AS_USER[@]}" chromium --no-sandbox --single-process --no-zygote "${platform[@]}" --disable-gpu \
        --user-data-dir="$HOME/chromium-profile" --no-first-run --no-default-browser-check --disable-extensions \
        --disable-background-networking --disable-component-update --disable-features=Translate \
        --enable-logging=stderr --v=0 --app="file://$PWD/scripts/desktop/pointer-log.html" >"$log" 2>&1 &
    APP=$!
    page_ready() { grep -q '"pe-ready ' "$log" || ! kill -0 $APP 2>/dev/null; }
    await page_ready
    grep -q '"pe-ready ' "$log" || { fail "chromium ($1): the page never loaded: $(grep -vE 'dbus|DBus' "$log" | tail -5)"; return 1; }
    # CLOCK_REALTIME − CLOCK_MONOTONIC now: puts the page's timeOrigin + timeStamp on CLOCK_MONOTONIC.
    # (A file of its own: Chromium writes its log without O_APPEND, over anything appended to it.)
    $PY -c 'import time; print("clock-offset-ms %.3f" % ((time.clock_gettime(time.CLOCK_REALTIME) - time.clock_gettime(time.CLOCK_MONOTONIC)) * 1000))' >"${log%.log}.clock-offset"
    say "chromium up on $1: $(sed -n 's/.*"pe-ready \(.*\)", source.*/\1/p' "$log" | head -1)"
}

# --- the GTK 4 example (examples/gtk4-pen.py), logging what GtkGestureStylus gave ---
# It runs as root (a client penkitd's socket lets in; Wayland's and X's sockets let root in too).
start_gtk() {
    local log=$OUT/gtk-$1.log backend=wayland
    [ "$1" = xorg ] && backend=x11
    : >"$log"
    # On Xorg GDK's device log goes to gtk-xorg.out (the devices and the tools it made of them).
    local debug=; [ "$1" = xorg ] && debug=input
    GDK_DEBUG=$debug GDK_BACKEND=$backend WAYLAND_DISPLAY=${WAYLAND_DISPLAY:+$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY} DISPLAY=${DISPLAY:-} \
        $PY examples/gtk4-pen.py --socket "$SOCK" --log "$log" >"$OUT/gtk-$1.out" 2>&1 &
    APP=$!
    gtk_ready() { grep -q '"signal": "ready"' "$log" || ! kill -0 $APP 2>/dev/null; }
    await gtk_ready
    grep -q '"signal": "ready"' "$log" || { fail "gtk ($1): the example did not start: $(tail -5 "$OUT/gtk-$1.out")"; return 1; }
    say "gtk up on $1"
    if [ "$1" = xorg ]; then xinput list >"$OUT/xinput-list.txt" 2>&1; fi
}
# What an app's log says once it has seen the pen leave (the end of the played trace).
left_pattern() { case $1 in chromium) echo '"type":"pointerout".*"kind":"pen"' ;; gtk) echo '"signal": "leave"' ;; esac; }
# What an app's log says when the pen lifts (only the judged stroke touches: the warm-up hovers).
up_pattern() { case $1 in chromium) echo '"type":"pointerup".*"kind":"pen"' ;; gtk) echo '"signal": "up"' ;; esac; }
# What an app's log says once the pen hovers over it.
hover_pattern() { case $1 in chromium) echo '"type":"pointermove".*"kind":"pen".*"b":0,' ;; gtk) echo '"signal": "proximity"' ;; esac; }

# play_path APP SERVER PATH LOG: one run of the trace for APP's log LOG, on PATH (virtual, direct,
# or failsafe: penkitd with its virtual tablet, SIGKILLed once the app has the warm-up's hover, so
# that the judged stroke reaches the app from the real tablet, as on `direct`); the app's lines
# from this run go to OUT/APP-SERVER-PATH.log.
play_path() {
    local app=$1 server=$2 path=$3 applog=$4 name=$1-$2-$3${PLAY_SUFFIX:-} daemon= node vnode= id want
    local replaylog=$OUT/$name.replay.txt
    if [ "$path" != direct ]; then
        "$BIN/penkitd" --virtual-tablet --config "$OUT/penkitd.conf" --socket "$SOCK" --state-dir "$RUN/state" \
            --log-level info >"$OUT/$name.penkitd.log" 2>&1 &
        daemon=$!
        listening() { awk -v p="$SOCK" '$NF == p && $4 == "00010000" { f = 1 } END { exit !f }' /proc/net/unix || ! kill -0 $daemon 2>/dev/null; }
        await listening
        kill -0 $daemon 2>/dev/null || { fail "$name: penkitd exited: $(tail -3 "$OUT/$name.penkitd.log")"; return 1; }
    fi
    rm -f "$RUN/go" "$RUN/end" "$RUN/resume"
    # The fail-safe's replay stops in the judged proximity's hover, before its first contact
    # (FAILSAFE_PAUSE_AT, from desktop.sh), until penkitd has been killed: the kill lands while the
    # pen hovers however far behind the app runs (it lagged seconds under emulation, and a kill
    # timed by the app's log came after the stroke).
    local pause=()
    [ "$path" = failsafe ] && pause=(env PENKIT_UINPUT_PAUSE_AT="$FAILSAFE_PAUSE_AT" PENKIT_UINPUT_RESUME_FILE="$RUN/resume")
    "${pause[@]}" env PENKIT_UINPUT_START_FILE=$RUN/go PENKIT_UINPUT_END_FILE=$RUN/end PENKIT_UINPUT_TIMES_FILE=$OUT/$name.times \
        "$BIN/penkit" replay "$TRACE" --uinput --speed "$SPEED" >"$replaylog" 2>&1 &
    local replay=$!
    node_known() { node=$(node_in "$replaylog"); [ -n "$node" ] || ! kill -0 $replay 2>/dev/null; }
    await node_known
    [ -n "$node" ] || { fail "$name: no uinput device: $(cat "$replaylog")"; kill $daemon 2>/dev/null; return 1; }
    want=1
    if [ "$path" != direct ]; then
        grabbed() {
            id=$(grep -F "tablet added" "$OUT/$name.penkitd.log" | grep -E " node=$node( |\$)" | tail -1 | field device)
            [ -n "$id" ] && grep -F "tablet grabbed" "$OUT/$name.penkitd.log" | grep -qE " device=$id( |\$)"
        }
        await grabbed || { fail "$name: penkitd never grabbed $node: $(tail -3 "$OUT/$name.penkitd.log")"; kill $replay $daemon 2>/dev/null; return 1; }
        vnode=$(grep -F "virtual tablet created" "$OUT/$name.penkitd.log" | grep -E " device=$id( |\$)" | tail -1 | field node)
        want=2   # the played tablet (grabbed: its reader gets nothing) and penkit's virtual tablet
    fi
    # The played tablet (some device not penkit's), and on `virtual` penkit's virtual tablet too.
    has_tablets() {
        local all; all=$(server_tablets)
        grep -qv "penkit virtual tablet" <<<"$all" && { [ $want -lt 2 ] || grep -q "penkit virtual tablet" <<<"$all"; }
    }
    await has_tablets || { fail "$name: $server has $(server_tablets | wc -l) tablets, not $want: $(server_tablets | tr '\n' ';')"; kill $replay $daemon 2>/dev/null; return 1; }
    say "$name: played tablet $node${vnode:+, the virtual tablet $vnode}; $server's tablets: $(server_tablets | tr '\n' ';')"
    local from=$(($(wc -l <"$applog") + 1))
    touch "$RUN/go"
    if [ "$path" = failsafe ]; then
        # The fail-safe: penkitd dies while the pen hovers over the app (the replay paused in the
        # judged proximity's hover, and the app has had the pen's hover and then nothing new for
        # 5 s: it has caught up with the paused pen; the warm-up may not reach it apart, as
        # Chromium coalesces under emulation); the kernel ends its grab and its virtual tablet,
        # and the display server reads the real tablet again. The judged stroke must come as on
        # `direct`, no button stuck.
        paused() { grep -q "^uinput: paused" "$replaylog" || ! kill -0 $replay 2>/dev/null; }
        hovering() { tail -n +"$from" "$applog" | grep -q "$(hover_pattern "$app")" || ! kill -0 $replay 2>/dev/null; }
        await paused && await hovering || say "$name: the replay never paused with the app hovering: $(tail -2 "$replaylog" | tr '\n' ' ')"
        wait_until false -- "$applog" 5
        kill -KILL $daemon; wait $daemon 2>/dev/null; daemon=
        touch "$RUN/resume"
        say "$name: penkitd SIGKILLed while the pen hovers ($(grep -c "^uinput: paused" "$replaylog") pause), the app having its hover; replay resumed"
    fi
    wait_until grep -q "^uinput: played" "$replaylog" -- "$replaylog" 600 || fail "$name: the replay did not finish: $(cat "$replaylog")"
    say "$name: played"
    # The app has the pen's last event once it has the judged stroke's lift and a proximity-out
    # after it (the warm-up's proximity-out alone would end the wait before the stroke), or has
    # been quiet a long while: then the checks below say what is missing.
    local pattern up; pattern=$(left_pattern "$app") up=$(${UP_PATTERN:-up_pattern} "$app")
    left() { tail -n +"$from" "$applog" | awk -v up="$up" -v out="$pattern" '$0 ~ up { u = 1 } u && $0 ~ out { f = 1 } END { exit !f }'; }
    # On X11 nothing tells an app that the pen left (no proximity-out event reaches it): there a
    # key pressed through XTest after the trace marks the end (the server sends it after the pen's
    # events it has read; the app logs it: Chromium's page and the example's --log). Failing that,
    # the app is done once its log has been quiet for 20 s (GTK under emulation ran 2 s behind).
    local quiet=60
    if [ "$server" = xorg ]; then
        quiet=20
        pattern='"pe-key |"signal": "key"' up=.
        xdotool key shift >>"$OUT/$name.xdotool.txt" 2>&1 || say "$name: xdotool key: $(tail -1 "$OUT/$name.xdotool.txt")"
    fi
    wait_until left -- "$applog" $quiet || say "$name: the app's log never said the pen left; quiet for $quiet s after the trace"
    tail -n +"$from" "$applog" >"$OUT/$name.log"
    # What Xorg's driver made of penkit's virtual tablet (the wacom driver's options and serials).
    if [ "$server" = xorg ]; then
        xinput list >"$OUT/$name.xinput.txt" 2>&1
        xorg_tablets | grep -F "penkit virtual tablet" | while read -r dev; do xinput list-props "$dev"; done >>"$OUT/$name.xinput.txt" 2>&1
    fi
    say "$name: the app's log taken ($(wc -l <"$OUT/$name.log") lines)"
    touch "$RUN/end"; wait $replay
    if [ -n "$daemon" ]; then kill -TERM $daemon; wait $daemon; fi
    gone() { [ "$(server_tablets | wc -l)" -eq 0 ]; }
    BOUND=60 await gone || say "$name: $server still lists tablets: $(server_tablets | tr '\n' ';')"
    # Judged on the host after the run (scripts/vm/desktop.sh): what the judge needs, one line each.
    [ -n "${PLAY_SUFFIX:-}" ] || echo "$app $server $path $OUTPUT_SIZE $applog ${XORG_DRIVER:-}" >>"$OUT/played.txt"
    say "$name: done"
}

# Each display server in turn, with each app on it; a server or app that cannot run fails the run
# with the reason (fail), and the next one still runs.
stop() { local p; for p in "$@"; do [ -n "$p" ] && { kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; }; done; }
# run_apps SERVER [APP...]: each app (default: DESKTOP_APPS) on SERVER in turn, on both paths.
run_apps() {
    local app path server=$1; shift
    for app in ${@:-${DESKTOP_APPS:-chromium gtk}}; do
        [ "$app" = xournalpp ] && { run_xournal "$server"; continue; }   # (no event log: its files are judged)
        if "start_$app" "$server"; then
            for path in ${DESKTOP_PATHS-virtual direct}; do play_path $app "$server" $path "$OUT/$app-$server.log"; done
            # The fail-safe where DESKTOP_FAILSAFE names the app and server (APP-SERVER).
            case " ${DESKTOP_FAILSAFE-chromium-sway chromium-xorg gtk-sway} " in *" $app-$server "*) play_path $app "$server" failsafe "$OUT/$app-$server.log" ;; esac
            for path in ${DESKTOP_PATHS-virtual direct}; do play_tools $app "$server" $path; done   # (last: a barrel button may leave the app in a state of its own)
        fi
        stop "${APP:-}"; APP=
    done
}
# DESKTOP_SERVERS and DESKTOP_APPS pick a part (while working on one); `make test` runs them all.
# Xorg: its input driver for each app's run (DESKTOP_XORG_DRIVERS, APP=DRIVER): Chromium's with
# the libinput driver (Xorg's default), GTK's with xf86-input-wacom (GTK 4's X11 backend makes a
# stylus only from that driver's properties: docs/virtual-tablet.md); Xorg starts again when the
# driver changes.
xorg_driver_of() { local d; for d in ${DESKTOP_XORG_DRIVERS:-chromium=libinput gtk=wacom}; do [ "${d%%=*}" = "$1" ] && echo "${d#*=}"; done; }
for SERVER_NAME in ${DESKTOP_SERVERS:-sway xorg}; do
    if [ "$SERVER_NAME" = xorg ]; then
        for app in ${DESKTOP_APPS:-chromium gtk}; do
            driver=$(xorg_driver_of "$app"); driver=${driver:-libinput}
            if [ -n "${SERVER:-}" ] && [ "$driver" != "${XORG_DRIVER:-}" ]; then stop "$SERVER"; SERVER=; fi
            if [ -n "${SERVER:-}" ] || start_xorg "$driver"; then run_apps xorg "$app"; fi
        done
    else
        "start_$SERVER_NAME" && run_apps $SERVER_NAME
    fi
    stop "${SERVER:-}" "${SEATD:-}"
    SERVER= SEATD= WAYLAND_DISPLAY= XORG_DRIVER=
done
return $status
}
main "$@"; exit
