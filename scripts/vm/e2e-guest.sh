#!/usr/bin/env bash
# Runs inside the VM (see scripts/vm/e2e.sh). Usage: e2e-guest.sh PENKIT OUT_DIR TRACE...
# For each trace: `penkit replay --uinput` creates the device and waits for a reader;
# `libinput record` (the tool users attach to bug reports) records it into OUT_DIR/<trace>.yml.
set -euo pipefail
PENKIT=$1 OUT=$2; shift 2
modprobe uinput
pgrep -x systemd-udevd >/dev/null || { echo "e2e: systemd-udevd is not running in the guest" >&2; exit 1; }
echo "guest: kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
status=0
for trace in "$@"; do
    name=$(basename "${trace%.*}")
    log=$OUT/$name.replay.txt
    "$PENKIT" replay "$trace" --uinput >"$log" 2>&1 &
    replay=$!
    node=
    for _ in $(seq 600); do   # the device node, once penkit has created it (≤ 60 s)
        node=$(sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) .*/\1/p' "$log")
        [ -n "$node" ] && break
        kill -0 $replay 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$node" ]; then echo "e2e: $name: no uinput device: $(cat "$log")" >&2; status=1; continue; fi
    libinput record --output-file "$OUT/$name.yml" "$node" 2>"$OUT/$name.record.err" &
    record=$!
    if wait $replay; then echo "e2e: $name: $(tail -1 "$log")"; else echo "e2e: $name: replay failed: $(cat "$log")" >&2; status=1; fi
    kill -INT $record 2>/dev/null || true
    wait $record 2>/dev/null || true
done
exit $status
