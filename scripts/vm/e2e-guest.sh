#!/usr/bin/env bash
# Runs inside the VM (see scripts/vm/e2e.sh). Usage: e2e-guest.sh BIN_DIR OUT_DIR SPEED TRACE...
# BIN_DIR holds penkit and penkitd; SPEED is `penkit replay --speed` (1: the recorded pace).
# For each trace, `penkit replay --uinput` creates the device and waits for its readers; penkitd (live libinput input) and `libinput record` both read it:
#   OUT_DIR/<trace>.yml            what libinput record recorded (real kernel timestamps)
#   OUT_DIR/<trace>.messages.jsonl what a client of penkitd received while the trace played
# The device is removed only once penkitd's client has caught up (removing it discards what a
# reader has not read yet): OUT_DIR/<trace>.expected.jsonl, written by e2e.sh on the host with
# `penkit replay --json`, says how many frames to wait for; a quiet client ends the wait too.
# Then, checked here (order and values only, never timing):
#   - unplug (first, which also warms penkitd up: the first trace a cold penkitd reads under
#     emulation can fall behind until the kernel drops events): the drag trace's first second
#     (E2E_UNPLUG_AT), which stops with the pen down, is played and the replay killed once the
#     client has seen `began` and gone quiet (the uinput device vanishes mid-stroke): penkitd must
#     send an `ended` and a `stroke` that are cancelled, and a device `removed`; then the whole
#     trace is played again (plugged back in) and its stroke must complete, not cancelled (e2e.sh
#     compares it too) (OUT_DIR/unplug.messages.jsonl, OUT_DIR/replug.messages.jsonl);
#   - a keyboard-like uinput device is never opened by penkitd (/proc/PID/fd).
# The host compares the strokes (e2e.sh). Timing inside the emulated guest means nothing: waits
# here are bounded only to end a broken run, never checked.
set -uo pipefail
# Parsed whole before it runs: editing this file during a run cannot change the run.
main() {
BIN=$1 OUT=$2 SPEED=$3; shift 3
# E2E_SKIP_UNPLUG, E2E_UNPLUG_TRACE, E2E_UNPLUG_AT as the host had them (the guest does not inherit them)
[ -f "$OUT/settings.sh" ] && . "$OUT/settings.sh"
modprobe uinput
pgrep -x systemd-udevd >/dev/null || { echo "e2e: systemd-udevd is not running in the guest" >&2; exit 1; }
echo "guest: kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
if grep -qs '^AttrTabletSmoothing=0' /etc/libinput/local-overrides.quirks; then
    echo "guest: libinput smoothing off (/etc/libinput/local-overrides.quirks)"
else echo "guest: libinput smoothing on (no override)"; fi
status=0
fail() { echo "e2e: FAIL: $*" >&2; status=1; }
count() { local n; n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

SOCK=/run/penkit-e2e.sock
# The client under emulation reads slowly: a 16 MiB live buffer instead of 64 KiB, so that penkitd
# rarely has to drop its frames (it reports any it drops with a `dropped` message; strokes are
# never dropped).
echo "client-live-buffer-bytes = 16777216" >"$OUT/penkitd.conf"
"$BIN/penkitd" --config "$OUT/penkitd.conf" --socket "$SOCK" --log-level info >"$OUT/penkitd.log" 2>&1 &
DAEMON=$!
for _ in $(seq 300); do [ -S "$SOCK" ] && break; sleep 0.1; done
[ -S "$SOCK" ] || fail "penkitd did not create its socket: $(tail -5 "$OUT/penkitd.log")"

# Starts a client and `penkit replay --uinput --speed SPEED` of TRACE as NAME; sets CLIENT, REPLAY,
# NODE. With a fourth argument, also starts libinput record (RECORD). Returns once both readers are ready
# and the replay has been told to start.
start() {
    local trace=$1 name=$2 speed=$3 with_record=${4:-} log=$OUT/$2.replay.txt
    "$BIN/penkit" events --socket "$SOCK" --json >"$OUT/$name.messages.jsonl" 2>"$OUT/$name.client.err" &
    CLIENT=$!
    rm -f "$OUT/$name.go" "$OUT/$name.end"
    PENKIT_UINPUT_START_FILE=$OUT/$name.go PENKIT_UINPUT_END_FILE=$OUT/$name.end \
        "$BIN/penkit" replay "$trace" --uinput --speed "$speed" >"$log" 2>&1 &
    REPLAY=$!
    NODE= RECORD=
    for _ in $(seq 600); do
        NODE=$(sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) .*/\1/p' "$log")
        [ -n "$NODE" ] && break
        kill -0 $REPLAY 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$NODE" ]; then fail "$name: no uinput device: $(cat "$log")"; return 1; fi
    if [ -n "$with_record" ]; then
        libinput record --output-file "$OUT/$name.yml" "$NODE" 2>"$OUT/$name.record.err" &
        RECORD=$!
    fi
    # Start only once the readers are ready: penkitd has announced the device to its client (or
    # logged that libinput ignored it), and libinput record has written `events:`.
    local ready=
    for _ in $(seq 1800); do
        if { grep -q "\"change\":\"added\".*\"source\":\"$NODE\"" "$OUT/$name.messages.jsonl" 2>/dev/null \
              || [ "$(count "libinput ignored a tablet" "$OUT/penkitd.log")" -gt "${IGNORED_BEFORE:-0}" ]; } \
           && { [ -z "$with_record" ] || grep -q "events:" "$OUT/$name.yml" 2>/dev/null; }; then ready=1; break; fi
        sleep 0.1
    done
    [ -n "$ready" ] || fail "$name: penkitd or libinput record never got ready for $NODE"
    touch "$OUT/$name.go"
}

# Waits (bounded, never checked) until FILE has at least N lines matching PATTERN, or has not
# grown for QUIET seconds.
wait_for() {
    local pattern=$1 n=$2 file=$3 quiet=${4:-20} size=-1 since=$SECONDS cap=$((SECONDS + 900)) now
    while [ $SECONDS -lt $cap ]; do
        [ "$(count "$pattern" "$file")" -ge "$n" ] && return 0
        now=$(stat -c %s "$file" 2>/dev/null || echo 0)
        if [ "$now" != "$size" ]; then size=$now since=$SECONDS; fi
        [ $((SECONDS - since)) -ge "$quiet" ] && return 1
        sleep 0.2
    done
    return 1
}

# Stops the client once penkitd has published everything about the device: its removal, then
# a stroke for every stroke begun.
finish_client() {
    local name=$1 messages=$OUT/$1.messages.jsonl
    wait_for "\"change\":\"removed\".*\"source\":\"$NODE\"" 1 "$messages" 60 || fail "$name: no device removed message for $NODE"
    wait_for '"type":"stroke"' "$(count '"type":"began"' "$messages")" "$messages" 10 \
        || fail "$name: $(count '"type":"began"' "$messages") strokes began, $(count '"type":"stroke"' "$messages") finalized"
    kill $CLIENT 2>/dev/null; wait $CLIENT 2>/dev/null
}

# Plays one trace through uinput with penkitd and `libinput record` reading it.
play() {
    local trace=$1 name log messages expected
    name=$(basename "${trace%.*}")
    log=$OUT/$name.replay.txt messages=$OUT/$name.messages.jsonl
    IGNORED_BEFORE=$(count "libinput ignored a tablet" "$OUT/penkitd.log")
    start "$trace" "$name" "$SPEED" record || { kill $CLIENT 2>/dev/null; return; }
    wait_for "^uinput: played" 1 "$log" 600 || fail "$name: replay did not finish: $(cat "$log")"
    # Keep the device until penkitd's client has every frame `penkit replay --json` has (or is quiet).
    expected=$(count '"type":"frame"' "$OUT/$name.expected.jsonl")
    wait_for '"type":"frame"' "$expected" "$messages" 10 || true
    sleep 1   # libinput record writes behind penkitd; nothing is checked against this pause
    touch "$OUT/$name.end"
    if wait $REPLAY; then echo "e2e: $name: $(grep '^uinput: played' "$log")"; else fail "$name: replay: $(cat "$log")"; fi
    if grep -q "\"change\":\"added\".*\"source\":\"$NODE\"" "$messages"; then
        finish_client "$name"
    else
        echo "e2e: $name: penkitd did not add $NODE: $(grep "ignored a tablet" "$OUT/penkitd.log" | tail -1)"
        sleep 2; kill $CLIENT 2>/dev/null; wait $CLIENT 2>/dev/null
    fi
    kill -INT $RECORD 2>/dev/null; wait $RECORD 2>/dev/null
    echo "e2e: $name: $(wc -l <"$messages") messages from penkitd: $(count '"type":"frame"' "$messages") frames ($expected from penkit replay), $(count '"type":"stroke"' "$messages") strokes"
}

# Unplug mid-stroke, then plug back in.
unplug() {
    local trace=$1 at=$2 m=$OUT/unplug.messages.jsonl
    # the trace up to AT seconds (whole frames): the pen is still down when it ends
    awk -v at="$at" '/^E:/ { if (!first) first = $2; if ($2 - first > at) exit } { print }
' "$trace" >"$OUT/unplug.evemu"
    start "$OUT/unplug.evemu" unplug "$SPEED" || { kill $CLIENT 2>/dev/null; return; }
    wait_for "^uinput: played" 1 "$OUT/unplug.replay.txt" 600 || true
    if wait_for '"type":"began"' 1 "$m" 30; then
        wait_for '"type":"nothing"' 1 "$m" 3 || true   # until the client is quiet
        kill -KILL $REPLAY; wait $REPLAY 2>/dev/null   # the uinput device goes with the process
        finish_client unplug
        local ended stroke
        ended=$(grep '"type":"ended"' "$m" | tail -1)
        stroke=$(grep '"type":"stroke"' "$m" | tail -1)
        if [[ $ended == *'"cancelled":true'* ]] && [[ $stroke == *'"cancelled":true'* ]] \
            && grep -q "\"change\":\"removed\".*\"source\":\"$NODE\"" "$m"; then
            echo "e2e: unplug mid-stroke: cancelled stroke ($(count '"type":"frame"' "$m") frames seen) and device removed: ok"
        else fail "unplug mid-stroke: ended: ${ended:-none}; stroke cancelled: $([[ $stroke == *'"cancelled":true'* ]] && echo yes || echo no); removed: $(count '"change":"removed"' "$m")"
        fi
    else fail "unplug: no stroke began"; kill -KILL $REPLAY 2>/dev/null; kill $CLIENT 2>/dev/null
    fi
    if start "$trace" replug "$SPEED"; then
        wait_for "^uinput: played" 1 "$OUT/replug.replay.txt" 600 || true
        wait_for '"type":"frame"' "$(count '"type":"frame"' "$OUT/replug.expected.jsonl")" "$OUT/replug.messages.jsonl" 10 || true
        touch "$OUT/replug.end"; wait $REPLAY
        finish_client replug
        if grep '"type":"stroke"' "$OUT/replug.messages.jsonl" | grep -q '"cancelled":false'; then
            echo "e2e: plugged back in: $(count '"type":"stroke"' "$OUT/replug.messages.jsonl") stroke(s), completed: ok"
        else fail "plugged back in: no completed stroke ($(count '"type":"stroke"' "$OUT/replug.messages.jsonl") strokes)"
        fi
    fi
}
[ -n "${E2E_SKIP_UNPLUG:-}" ] || unplug "${E2E_UNPLUG_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}" "${E2E_UNPLUG_AT:-1.0}"

for trace in "$@"; do play "$trace"; done

# A keyboard: udev tags it ID_INPUT_KEYBOARD, not a tablet, so penkitd must leave it alone.
cat >"$OUT/keyboard.evemu" <<'KBD'
# EVEMU 1.3
N: penkit e2e keyboard
I: 0003 1234 5678 0001
P: 00 00 00 00 00 00 00 00
B: 00 03 00 00 00 00 00 00 00
B: 01 fe ff ff ff 00 00 00 00
E: 0.000000 0001 001e 1
E: 0.000000 0000 0000 0
E: 0.050000 0001 001e 0
E: 0.050000 0000 0000 0
KBD
"$BIN/penkit" replay "$OUT/keyboard.evemu" --uinput >"$OUT/keyboard.replay.txt" 2>&1 &
KBD=$!
node=
for _ in $(seq 600); do
    node=$(sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) .*/\1/p' "$OUT/keyboard.replay.txt"); [ -n "$node" ] && break; sleep 0.1
done
udevadm settle --timeout=60
sleep 2   # penkitd's monitor has seen the add event by now if it were going to act on it
if [ -z "$node" ]; then fail "keyboard: no uinput device: $(cat "$OUT/keyboard.replay.txt")"
elif ls -l /proc/$DAEMON/fd 2>/dev/null | grep -q " $node\$"; then fail "penkitd opened the keyboard $node"
else echo "e2e: keyboard $node ($(udevadm info -q property -n "$node" | grep -E '^ID_INPUT_(KEYBOARD|TABLET)=' | tr '\n' ' ')): not opened by penkitd (pid $DAEMON)"
fi
kill $KBD 2>/dev/null; wait $KBD 2>/dev/null

kill -TERM $DAEMON; wait $DAEMON; echo "e2e: penkitd exit $?"
return $status
}
main "$@"; exit
