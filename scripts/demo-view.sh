#!/usr/bin/env bash
# make demo, second part: `penkit view` replays a bundled trace for a browser, without a daemon.
# It runs in the background and prints its URL; each page that opens the URL watches the trace
# draw itself at its recorded pace. It stops by itself once no page has been open for 10 minutes,
# so that make demo finishes without waiting for a browser.
set -euo pipefail
trace=${1:-traces/wacom-intuos4-6x9-stylus-drag.evemu}
bin=$(swift build --show-bin-path)
log=$(mktemp)
setsid nohup "$bin/penkit" view --replay "$trace" --realtime --exit-when-idle 600 >"$log" 2>&1 </dev/null &
view=$!
for _ in $(seq 200); do grep -q '^penkit view: http' "$log" && break; kill -0 "$view" 2>/dev/null || break; sleep 0.05; done
url=$(sed -n 's/^penkit view: //p' "$log" | head -1)
# A replay is watched in the debug view: the canvas draws only what its own pen events pair with.
debug=$(sed -n 's/^the tablet-space debug view, with its panel: //p' "$log" | head -1)
if [ -z "$url" ]; then
    cat "$log" >&2
    echo "penkit view did not start" >&2
    exit 1
fi
rm -f "$log"
echo "penkit view (pid $view) replays $trace for your browser: open the debug view"
echo "    $debug"
echo "(its canvas, $url, draws where your own pen is, paired with penkit's: with penkitd, not a replay)"
echo "(loopback only; each page load replays from the start; it stops after 10 idle minutes, or: kill $view)"
