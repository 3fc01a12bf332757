#!/usr/bin/env bash
# Runs inside the VM (see scripts/vm/e2e.sh). Usage: e2e-guest.sh BIN_DIR OUT_DIR TRACE...
# BIN_DIR holds penkit and penkitd. For each trace, `penkit replay --uinput` creates the device
# and waits for a reader; penkitd (live libinput input) and `libinput record` both read it:
#   OUT_DIR/<trace>.yml            what libinput record recorded (round trip through penkit's reader)
#   OUT_DIR/<trace>.messages.jsonl what a client of penkitd received while the trace played
# Then a keyboard-like uinput device is created; penkitd must never open it (/proc/PID/fd).
set -uo pipefail
# Parsed whole before it runs: editing this file during a run cannot change the run.
main() {
BIN=$1 OUT=$2; shift 2
modprobe uinput
pgrep -x systemd-udevd >/dev/null || { echo "e2e: systemd-udevd is not running in the guest" >&2; exit 1; }
echo "guest: kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
status=0
fail() { echo "e2e: FAIL: $*" >&2; status=1; }

SOCK=/run/penkit-e2e.sock
"$BIN/penkitd" --socket "$SOCK" --log-level info >"$OUT/penkitd.log" 2>&1 &
DAEMON=$!
for _ in $(seq 300); do [ -S "$SOCK" ] && break; sleep 0.1; done
[ -S "$SOCK" ] || fail "penkitd did not create its socket: $(tail -5 "$OUT/penkitd.log")"

# Plays one trace through uinput with penkitd and `libinput record` reading it.
play() {
    local trace=$1 name log node replay record client
    name=$(basename "${trace%.*}")
    log=$OUT/$name.replay.txt
    "$BIN/penkit" events --socket "$SOCK" --json >"$OUT/$name.messages.jsonl" 2>"$OUT/$name.client.err" &
    client=$!
    rm -f "$OUT/$name.go"
    PENKIT_UINPUT_START_FILE=$OUT/$name.go "$BIN/penkit" replay "$trace" --uinput >"$log" 2>&1 &
    replay=$!
    node=
    for _ in $(seq 600); do
        node=$(sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) .*/\1/p' "$log")
        [ -n "$node" ] && break
        kill -0 $replay 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$node" ]; then fail "$name: no uinput device: $(cat "$log")"; kill $client; return; fi
    libinput record --output-file "$OUT/$name.yml" "$node" 2>"$OUT/$name.record.err" &
    record=$!
    # Start only once both readers are ready: penkitd has announced the device to its client,
    # and libinput record has written its description (it then writes `events:`).
    local ready=
    for _ in $(seq 1800); do
        if grep -q "\"change\":\"added\".*\"source\":\"$node\"" "$OUT/$name.messages.jsonl" 2>/dev/null \
            && grep -q "events:" "$OUT/$name.yml" 2>/dev/null; then ready=1; break; fi
        sleep 0.1
    done
    [ -n "$ready" ] || fail "$name: penkitd or libinput record never got ready for $node"
    touch "$OUT/$name.go"
    if wait $replay; then echo "e2e: $name: $(tail -1 "$log")"; else fail "$name: replay: $(cat "$log")"; fi
    kill -INT $record 2>/dev/null; wait $record 2>/dev/null
    sleep 1   # let penkitd finalize and publish the last stroke (device removal cancels open ones)
    kill $client 2>/dev/null; wait $client 2>/dev/null
    echo "e2e: $name: $(wc -l <"$OUT/$name.messages.jsonl") messages from penkitd"
}

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
