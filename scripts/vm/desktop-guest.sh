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
# scripts/desktop/desktop-results.py judges each app log (positions through a fitted affine map,
# pressure, eraser, buttons, hover, double input) and prints the `desktop-result {json}` row.
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
: >"$OUT/failures.txt"
fail() { echo "desktop: FAIL: $*" >&2; echo "desktop: FAIL: $*" >>"$OUT/failures.txt"; status=1; }
BOUND=${DESKTOP_WAIT_SECONDS:-900}
await() {
    local cap=$((SECONDS + BOUND))
    until "$@"; do [ $SECONDS -lt $cap ] || return 1; sleep 0.2; done
}
# await_quiet FILE QUIET CONDITION...: CONDITION holds (0), or FILE has not grown for QUIET s (1).
await_quiet() {
    local file=$1 quiet=$2 size=-1 since=$SECONDS cap=$((SECONDS + BOUND)) now; shift 2
    while [ $SECONDS -lt $cap ]; do
        "$@" && return 0
        now=$(stat -c %s "$file" 2>/dev/null || echo 0)
        if [ "$now" != "$size" ]; then size=$now since=$SECONDS; fi
        [ $((SECONDS - since)) -ge "$quiet" ] && return 1
        sleep 0.2
    done
    return 1
}
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
    echo "desktop: sway up (pid $SERVER, $WAYLAND_DISPLAY): output $OUTPUT_SIZE"
}
# The tablet-tool devices the display server has (names, one a line).
server_tablets() { swaymsg -t get_inputs -r 2>/dev/null | $PY -c 'import json,sys; [print(d["name"]) for d in json.load(sys.stdin) if d["type"] == "tablet_tool"]' 2>/dev/null; }   # (sway's IPC may not answer while it is busy)

# --- Chromium on Ozone Wayland ---
start_chromium() {
    local log=$OUT/chromium-$1.log
    rm -rf "$HOME/chromium-profile"
    # One process (--single-process): under emulation Chromium's helper processes took longer than
    # its 15 s connection timeout to start and were ended, and the page never loaded.
    WAYLAND_DISPLAY=$WAYLAND_DISPLAY "${AS_USER[@]}" chromium --no-sandbox --single-process --no-zygote --ozone-platform=wayland --disable-gpu \
        --user-data-dir="$HOME/chromium-profile" --no-first-run --no-default-browser-check --disable-extensions \
        --disable-background-networking --disable-component-update --disable-features=Translate \
        --enable-logging=stderr --v=0 --app="file://$PWD/scripts/desktop/pointer-log.html" >"$log" 2>&1 &
    APP=$!
    page_ready() { grep -q '"pe-ready ' "$log" || ! kill -0 $APP 2>/dev/null; }
    await page_ready
    grep -q '"pe-ready ' "$log" || { fail "chromium ($1): the page never loaded: $(grep -vE 'dbus|DBus' "$log" | tail -5)"; return 1; }
    # CLOCK_REALTIME − CLOCK_MONOTONIC now: puts the page's timeOrigin + timeStamp on CLOCK_MONOTONIC.
    # (A file of its own: Chromium writes its log without O_APPEND, over anything appended to it.)
    $PY -c 'import time; print("clock-offset-ms %.3f" % ((time.clock_gettime(time.CLOCK_REALTIME) - time.clock_gettime(time.CLOCK_MONOTONIC)) * 1000))' >"$OUT/clock-offset.txt"
    echo "desktop: chromium up on $1: $(sed -n 's/.*"pe-ready \(.*\)", source.*/\1/p' "$log" | head -1)"
}

# play_path APP SERVER PATH LOG: one run of the trace for APP's log LOG, on PATH (virtual or
# direct); the app's lines from this run go to OUT/APP-SERVER-PATH.log.
play_path() {
    local app=$1 server=$2 path=$3 applog=$4 name=$1-$2-$3 daemon= node vnode= id want
    local replaylog=$OUT/$name.replay.txt
    if [ "$path" = virtual ]; then
        "$BIN/penkitd" --virtual-tablet --config "$OUT/penkitd.conf" --socket "$SOCK" --state-dir "$RUN/state" \
            --log-level info >"$OUT/$name.penkitd.log" 2>&1 &
        daemon=$!
        listening() { awk -v p="$SOCK" '$NF == p && $4 == "00010000" { f = 1 } END { exit !f }' /proc/net/unix || ! kill -0 $daemon 2>/dev/null; }
        await listening
        kill -0 $daemon 2>/dev/null || { fail "$name: penkitd exited: $(tail -3 "$OUT/$name.penkitd.log")"; return 1; }
    fi
    rm -f "$RUN/go" "$RUN/end"
    PENKIT_UINPUT_START_FILE=$RUN/go PENKIT_UINPUT_END_FILE=$RUN/end PENKIT_UINPUT_TIMES_FILE=$OUT/$name.times \
        "$BIN/penkit" replay "$TRACE" --uinput --speed "$SPEED" >"$replaylog" 2>&1 &
    local replay=$!
    node_known() { node=$(node_in "$replaylog"); [ -n "$node" ] || ! kill -0 $replay 2>/dev/null; }
    await node_known
    [ -n "$node" ] || { fail "$name: no uinput device: $(cat "$replaylog")"; kill $daemon 2>/dev/null; return 1; }
    want=1
    if [ "$path" = virtual ]; then
        grabbed() {
            id=$(grep -F "tablet added" "$OUT/$name.penkitd.log" | grep -E " node=$node( |\$)" | tail -1 | field device)
            [ -n "$id" ] && grep -F "tablet grabbed" "$OUT/$name.penkitd.log" | grep -qE " device=$id( |\$)"
        }
        await grabbed || { fail "$name: penkitd never grabbed $node: $(tail -3 "$OUT/$name.penkitd.log")"; kill $replay $daemon 2>/dev/null; return 1; }
        vnode=$(grep -F "virtual tablet created" "$OUT/$name.penkitd.log" | grep -E " device=$id( |\$)" | tail -1 | field node)
        want=2   # the played tablet (grabbed: its reader gets nothing) and penkit's virtual tablet
    fi
    has_tablets() { [ "$(server_tablets | wc -l)" -ge $want ]; }
    await has_tablets || { fail "$name: $server has $(server_tablets | wc -l) tablets, not $want: $(server_tablets | tr '\n' ';')"; kill $replay $daemon 2>/dev/null; return 1; }
    echo "desktop: $name: played tablet $node${vnode:+, the virtual tablet $vnode}; $server's tablets: $(server_tablets | tr '\n' ';')"
    local from=$(($(wc -l <"$applog") + 1))
    touch "$RUN/go"
    await_quiet "$replaylog" 600 grep -q "^uinput: played" "$replaylog" || fail "$name: the replay did not finish: $(cat "$replaylog")"
    # The app has the pen's last event once it has the proximity-out's pointerout (or has been
    # quiet a long while: then the checks below say what is missing).
    left() { tail -n +"$from" "$applog" | grep -q '"type":"pointerout".*"kind":"pen"'; }
    await_quiet "$applog" 60 left || echo "desktop: $name: no pen pointerout in the app's log after the trace"
    tail -n +"$from" "$applog" >"$OUT/$name.log"
    touch "$RUN/end"; wait $replay
    if [ -n "$daemon" ]; then kill -TERM $daemon; wait $daemon; fi
    gone() { [ "$(server_tablets | wc -l)" -eq 0 ]; }
    await gone || echo "desktop: $name: $server still lists tablets: $(server_tablets | tr '\n' ';')"
    $PY scripts/desktop/desktop-results.py --app "$app" --server "$server" --path "$path" \
        --log "$OUT/$name.log" --clock "$applog" --trace "$TRACE" --expected "$OUT/virtual.expected.jsonl" \
        --direct-expected "$OUT/direct.expected.jsonl" --speed "$SPEED" \
        --output-size "$OUTPUT_SIZE" --penkit "$BIN/penkit" --curve "$DESKTOP_CURVE" >"$OUT/$name.result" 2>"$OUT/$name.result.err" \
        || fail "$name: $(cat "$OUT/$name.result.err")"
    cat "$OUT/$name.result"
}

start_sway || return 1
start_chromium sway || { kill $SERVER; return 1; }
for path in virtual direct; do
    play_path chromium sway $path "$OUT/chromium-sway.log"
done
kill $APP 2>/dev/null; wait $APP 2>/dev/null
kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null
kill $SEATD 2>/dev/null; wait $SEATD 2>/dev/null
return $status
}
main "$@"; exit
