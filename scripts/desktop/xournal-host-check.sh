#!/usr/bin/env bash
# Xournal++ on the host, without a VM: real Xournal++ (Debian 12's 1.1.x) under Xvfb, driven by
# xdotool's pointer (XTest) along the expected events of shared traces, saving with its own Ctrl+S
# (scripts/desktop/xournal-session.sh), judged by scripts/desktop/xournal-results.py.
#
#     scripts/desktop/xournal-host-check.sh PENKIT [OUT_DIR]
#
# What it proves: the session (fresh config, window, Ctrl+0, save to the named file, quit), the
# reading of a file Xournal++ wrote, the pairing of its points with the expected events through
# the map (whole pixels: judged beyond their rounding), no extra stroke, and Xournal++'s own
# eraser cutting the ink under expected eraser events (the eraser tool picked with Ctrl+Shift+E,
# the pointer erasing) and leaving the rest. And that the judge fails when the file is wrong: a
# point moved by 2 pt (whole-pixel input is judged beyond its ±0.5 px rounding, so 1 px can hide
# in it; a pen's fractional positions cannot hide 0.5), a stroke added, nothing erased.
# What it cannot prove: pressure. A pointer has none (the strokes have one width, and
# pressure_exact is null); the widths' pressure and the eraser end arriving as an eraser need a
# pen device, which needs uinput: the desktop guest (docs/virtual-tablet.md).
# Needs: xournalpp xvfb xdotool x11-utils. About 20 s. Prints "N passed, M failed"; exits 1 on a failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
PENKIT=${1:?usage: $0 PENKIT [OUT_DIR]}
OUT=${2:-$(mktemp -d -t penkit-xournal-check.XXXXXX)}
mkdir -p "$OUT"
S=scripts/desktop
for c in xournalpp Xvfb xdotool; do command -v $c >/dev/null || { echo "xournal-host-check: $c is not installed (Debian: xournalpp xvfb xdotool)" >&2; exit 1; }; done
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# Xvfb on a free display: it writes the number it took on the fd once it accepts clients.
exec {fd}<> <(:)
Xvfb -displayfd $fd -screen 0 1280x720x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null' EXIT
read -r -t 60 -u $fd num || { echo "xournal-host-check: Xvfb did not start: $(tail -3 "$OUT/xvfb.log")" >&2; exit 1; }
export DISPLAY=:$num
unset WAYLAND_DISPLAY

# The traces: the desktop guest's (a hover warm-up, then the drag) and a pen circle then an
# eraser circle on one Intuos Pro (shared recordings, traces/).
scripts/vm/trace-head.sh traces/wacom-intuos4-6x9-stylus-hover.evemu 0.25 >"$OUT/warm-up.evemu"
scripts/vm/concat-traces.sh "$OUT/warm-up.evemu" traces/wacom-intuos4-6x9-stylus-drag.evemu >"$OUT/drag.evemu"
scripts/vm/concat-traces.sh traces/wacom-intuos-pro-m-pen-ccw-circle.evemu traces/wacom-intuos-pro-m-eraser-ccw-circle.evemu >"$OUT/erase.evemu"
for t in drag erase; do
    "$PENKIT" bench virtual-tablet --events --events-of virtual --pressure-curve 0,0.25,0.75,1 "$OUT/$t.evemu" >"$OUT/$t.expected.jsonl" \
        || { echo "xournal-host-check: penkit bench virtual-tablet --events failed on $t" >&2; exit 1; }
done

judge() {  # judge NAME ARGS...: the row to OUT/NAME.result, the reasons to OUT/NAME.err
    local name=$1; shift
    python3 $S/xournal-results.py --output-size 1280x720 --server xvfb --path pointer --input pointer "$@" >"$OUT/$name.result" 2>"$OUT/$name.err"
}
# mutate IN OUT PYTHON: OUT is IN's XML changed by PYTHON (on `root`, an ElementTree).
mutate() {
    python3 - "$1" "$2" "$3" <<'EOF'
import gzip, sys, xml.etree.ElementTree as ET
root = ET.fromstring(gzip.open(sys.argv[1]).read())
exec(sys.argv[3])
with gzip.open(sys.argv[2], "wb") as f:
    f.write(ET.tostring(root))
EOF
}

# 0. The judge's reading of inserted points, on a stroke worked out by hand from Xournal++ 1.1's
# StrokeHandler::paintTo (W 1.41; press at (0,0) with pressure 0.2, motion to (3,0) with 0.8:
# Δ = 1.41·0.6 = 0.846 > 0.3, n = min(ceil(0.846/0.3), floor(3/0.3)) = 3, so points at (1,0) and
# (2,0) are inserted, widths 0.282+0.282·k: 0.564, 0.846, 1.128; then (3.5,0) at 0.8 (Δ 0: kept).
# And after a kept point: (0,0) 0.5, (1.3,0) 0.5, then (4.3,0) 1.0: Δ 0.705, n = 3, (2.3,0) and
# (3.3,0) inserted, widths 0.705, then 0.705+0.235·k: 0.94, 1.175, 1.41. (Points spaced alike
# from the press would fit one run from a lower first pressure, which no width stores: real input
# is not spaced alike to 1e-7.)
if python3 - <<'EOF2'
import sys; sys.path.insert(0, "scripts/desktop")
from xournal_file import take_apart
s = {"width": 1.41, "widths": [0.564, 0.846, 1.128, 1.128], "points": [(0, 0), (1, 0), (2, 0), (3, 0), (3.5, 0)]}
kept = [p["kept"] for p in take_apart(s)]
assert kept == [True, False, False, True, True], kept
s["points"][1] = (1.01, 0)   # off the segment: an input event, not an inserted point
kept = [p["kept"] for p in take_apart(s)]
assert kept == [True, True, True, True, True], kept
s = {"width": 1.41, "widths": [0.705, 0.94, 1.175, 1.41], "points": [(0, 0), (1.3, 0), (2.3, 0), (3.3, 0), (4.3, 0)]}
kept = [p["kept"] for p in take_apart(s)]
assert kept == [True, True, False, False, True], kept
EOF2
then ok "inserted points told from kept ones on a stroke worked out by hand"; else bad "inserted points on a stroke worked out by hand"; fi

# 1. The drag: one stroke.
if $S/xournal-session.sh start "$OUT/drag-session" "$OUT/drag.xopp" 1280x720 \
    && python3 $S/xournal-pointer-play.py "$OUT/drag.expected.jsonl" "$OUT/drag.evemu" 1280x720 pen \
    && $S/xournal-session.sh save "$OUT/drag-session" && $S/xournal-session.sh quit "$OUT/drag-session"; then
    ok "Xournal++ saved the drag by its own Ctrl+S"
    if judge drag --xopp "$OUT/drag.xopp" --expected "$OUT/drag.expected.jsonl" --trace "$OUT/drag.evemu"; then
        ok "the drag's saved points follow the expected events: $(cat "$OUT/drag.result")"
    else
        bad "the drag: $(cat "$OUT/drag.err") $(cat "$OUT/drag.result")"
    fi
    mutate "$OUT/drag.xopp" "$OUT/drag-moved.xopp" '
s = root.find(".//stroke"); v = s.text.split(); v[2 * 40] = "%.8f" % (float(v[2 * 40]) + 2.0); s.text = " ".join(v)'
    judge drag-moved --xopp "$OUT/drag-moved.xopp" --expected "$OUT/drag.expected.jsonl" --trace "$OUT/drag.evemu" \
        && bad "the judge took a point moved by 2 pt" || ok "the judge refuses a point moved by 2 pt: $(cat "$OUT/drag-moved.err")"
    mutate "$OUT/drag.xopp" "$OUT/drag-twice.xopp" '
import copy; layer = root.find(".//layer"); layer.append(copy.deepcopy(layer.find("stroke")))'
    judge drag-twice --xopp "$OUT/drag-twice.xopp" --expected "$OUT/drag.expected.jsonl" --trace "$OUT/drag.evemu" \
        && bad "the judge took a stroke saved twice" || ok "the judge refuses a stroke saved twice: $(cat "$OUT/drag-twice.err")"
else
    bad "the drag's session: see $OUT/drag-session/xournalpp.log"
    $S/xournal-session.sh quit "$OUT/drag-session" 2>/dev/null
fi

# 2. The circle, then the eraser over it (the eraser tool, Ctrl+Shift+E: a pointer has no eraser
# end), saved; then Ctrl+Z (Xournal++ undoes the whole erasing) and saved again: the ink before the
# eraser, as the desktop guest gets it from one played trace of both.
if $S/xournal-session.sh start "$OUT/erase-session" "$OUT/erase-before.xopp" 1280x720 \
    && python3 $S/xournal-pointer-play.py "$OUT/erase.expected.jsonl" "$OUT/erase.evemu" 1280x720 pen \
    && $S/xournal-session.sh key "$OUT/erase-session" ctrl+shift+e \
    && python3 $S/xournal-pointer-play.py "$OUT/erase.expected.jsonl" "$OUT/erase.evemu" 1280x720 eraser \
    && $S/xournal-session.sh save "$OUT/erase-session" "$OUT/erase.xopp" \
    && $S/xournal-session.sh key "$OUT/erase-session" ctrl+z \
    && $S/xournal-session.sh save "$OUT/erase-session" && $S/xournal-session.sh quit "$OUT/erase-session"; then
    ok "Xournal++ saved what its eraser left of the circle, and the circle after Ctrl+Z"
    if judge erase --xopp "$OUT/erase.xopp" --before-eraser "$OUT/erase-before.xopp" --expected "$OUT/erase.expected.jsonl" --trace "$OUT/erase.evemu"; then
        ok "the eraser cut the ink under its events and left the rest: $(cat "$OUT/erase.result")"
    else
        bad "the eraser: $(cat "$OUT/erase.err") $(cat "$OUT/erase.result")"
    fi
    judge erase-none --xopp "$OUT/erase-before.xopp" --before-eraser "$OUT/erase-before.xopp" --expected "$OUT/erase.expected.jsonl" --trace "$OUT/erase.evemu" \
        && bad "the judge took ink that no eraser touched as erased" || ok "the judge refuses ink that was not erased: $(cat "$OUT/erase-none.err")"
else
    bad "the eraser's session: see $OUT/erase-session/xournalpp.log"
    $S/xournal-session.sh quit "$OUT/erase-session" 2>/dev/null
fi
echo "xournal-host-check: $passed passed, $failed failed (files in $OUT)"
[ $failed -eq 0 ]
