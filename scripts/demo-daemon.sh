#!/usr/bin/env bash
# make demo-daemon: penkitd replays a bundled real trace on a temporary socket;
# `penkit strokes` prints one line per finalized stroke and writes an SVG; then
# penkitd stops cleanly (it tells the client, which exits).
set -euo pipefail
trace=${1:-traces/wacom-dth2242-pen.evemu}
bin=$(swift build --show-bin-path)
dir=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$dir"' EXIT
svg=${DEMO_SVG:-out/demo-strokes.svg}
mkdir -p "$(dirname "$svg")"

# The stroke journal goes in the temporary directory too: one kept from an earlier demo would be
# replayed to the client (--since 0) before this run's strokes.
"$bin/penkitd" --config /dev/null --socket "$dir/penkit.sock" --state-dir "$dir/state" --replay "$trace" --realtime \
    --wait-clients 1 --exit-after-replay --log-level warning &
daemon=$!
for _ in $(seq 100); do [ -S "$dir/penkit.sock" ] && break; sleep 0.05; done
echo "penkitd (pid $daemon) replaying $trace on $dir/penkit.sock"
"$bin/penkit" strokes --socket "$dir/penkit.sock" --since 0 --svg "$svg"
wait "$daemon"
echo "penkitd exited with status $?; SVG written to $svg"
