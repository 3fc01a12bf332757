#!/usr/bin/env bash
# make demo-daemon: penkitd replays a bundled real trace on a temporary socket;
# `penkit strokes` prints one line per finalized stroke and writes an SVG; then
# penkitd stops cleanly (it tells the client, which exits). penkitd's config
# gives the pen a pencil ink, so the SVG shows width and opacity following the
# pressure, semi-transparent, with the pencil's grain. A second SVG draws the
# Cintiq trace (pen, pencil, airbrush and the eraser end) with `penkit draw`:
# pen, pencil and marker inks side by side, erasers applied. The Cintiq's eraser never touches
# its ink, so a third SVG shows what an eraser does: the Intuos4 drag's one long stroke, cut by
# a synthetic pixel-eraser pass through the middle of the ink (`penkit draw --eraser-pass across`).
set -euo pipefail
trace=${1:-traces/wacom-dth2242-pen.evemu}
bin=$(swift build --show-bin-path)
dir=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$dir"' EXIT
svg=${DEMO_SVG:-out/demo-strokes.svg}
drawing_svg=${DEMO_DRAWING_SVG:-out/demo-drawing.svg}
erased_svg=${DEMO_ERASED_SVG:-out/demo-erased.svg}
mkdir -p "$(dirname "$svg")" "$(dirname "$drawing_svg")" "$(dirname "$erased_svg")"
cat > "$dir/penkitd.conf" <<'CONF'
ink-pen = pencil 34508cff 1.6  # a config file's colours go without their #
CONF

# The stroke journal goes in the temporary directory too: one kept from an earlier demo would be
# replayed to the client (--since 0) before this run's strokes.
"$bin/penkitd" --config "$dir/penkitd.conf" --socket "$dir/penkit.sock" --state-dir "$dir/state" \
    --replay "$trace" --realtime --wait-clients 1 --exit-after-replay --log-level warning &
daemon=$!
for _ in $(seq 100); do [ -S "$dir/penkit.sock" ] && break; sleep 0.05; done
echo "penkitd (pid $daemon) replaying $trace on $dir/penkit.sock"
"$bin/penkit" strokes --socket "$dir/penkit.sock" --since 0 --svg "$svg"
wait "$daemon"
echo "penkitd exited with status $?; SVG written to $svg"
"$bin/penkit" draw traces/wacom-cintiq-22hdt-pen.evemu --eraser pixel \
    --ink 'pen=pen #1d4ed8cc 1.4' --ink 'pencil=pencil #222222ff 2' --ink 'airbrush=marker #f5b800ff 6' \
    --svg "$drawing_svg"
echo "drawing of the Cintiq trace written to $drawing_svg"
"$bin/penkit" draw traces/wacom-intuos4-6x9-stylus-drag.evemu --eraser pixel --ink 'pen=pen #1d4ed8ff 2' \
    --eraser-pass across --svg "$erased_svg"
echo "the Intuos4 drag, cut by a pixel eraser passing through its middle, written to $erased_svg"
