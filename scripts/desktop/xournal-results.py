#!/usr/bin/env python3
"""Judges what Xournal++ saved (scripts/desktop/xournal-session.sh) against the stroke penkit wrote,
and prints one `desktop-result {json}` row (app "xournalpp"), as desktop-results.py does for the
apps that log their events.

    xournal-results.py --xopp SAVED.xopp [--before-eraser SAVED_BEFORE.xopp] --expected EVENTS.jsonl
                       --trace PLAYED.evemu --output-size 1280x720 --server xorg --path virtual
                       [--input pen|pointer] [--zoom 1] [--penkit PENKIT --curve 0,0.25,0.75,1]

EVENTS.jsonl is what the display server's libinput should report (`penkit bench virtual-tablet
--events`: path b, the virtual tablet, for `virtual`; path a for `direct`). Each contact of the pen
tool (tip down to tip up) is one stroke Xournal++ must have saved; each contact of the eraser tool
is ink it must have erased (then --before-eraser is the file saved before the eraser came).

What is checked (scripts/desktop/xournal_file.py says how Xournal++ 1.1 makes a stroke's points and
widths from the pen, from its source):
- strokes: as many pen strokes as expected contacts, each from its own contact, no other element
  (no highlighter, eraser or shape strokes, no text);
- positions: every point Xournal++ kept from an input event pairs with one expected contact event,
  by content and in order (scripts/desktop/content_pairing.py), under an affine map from the
  tablet (mm) to the page (pt) fitted on the pairs; its largest residual must be ≤ 0.5 pt (for
  whole-pixel input, xdotool's pointer on the host, beyond that rounding). Expected events with no
  point are `below_threshold` (within 0.3 pt of the point before them: Xournal++ adds no point
  there) or `lost` (the app never got them: counted, as desktop-results.py counts them);
- points Xournal++ inserted on a segment (where the width changes by more than 0.3 pt) sit exactly
  where it puts them, with the widths it gives them (`inserted`);
- pressure_exact: each segment's saved width is W × the pressure of the event at its end, the
  expected pressure to the app's resolution (1.5/65535, as desktop-results.py; the file's 8
  decimals are far finer): penkit's force on `virtual`, libinput's pressure on `direct`. The first
  segment may instead take the highest pressure of the events before it that added no point
  (Xournal++'s firstPointPressureChange). With --input pointer (no pressure to give) the strokes
  must have one width, and pressure_exact is null;
- eraser: for each eraser contact, the ink within the eraser's square (half-size 8.5 pt,
  Xournal++'s MEDIUM eraser) around an expected eraser event is gone, the ink beyond its reach
  (√2·8.5 pt, Xournal++'s reach for a whole segment) is unchanged, and no ink appeared; null when
  the trace has no eraser contact;
- zoom: the page's scale the fit found, against the output's px/mm (1 pt = 1 px at 100 % and 72 dpi),
  within 1 % of --zoom (the session's Ctrl+0);
- lag_ms, rmse_mm, jitter_*: `penkit bench virtual-tablet --app-track` of the kept points (through
  the inverse map, at their paired events' times), when --penkit is given; delay_ms_p50 null (a
  .xopp keeps no event times).
Exits 1 with the reasons on stderr when a check fails, 2 when the file cannot be read; the row is
printed either way (but for 2)."""
import argparse, json, math, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evemu_axes import tablet_size
from content_pairing import PRESSURE_STEP, apply, invert, judge_map_residual, refit_through_gates
from xournal_file import MOTION_THRESHOLD, WRITTEN, XoppError, read_xopp, take_apart

RESIDUAL_PT = 0.5
ERASER_HALF = 8.5   # ToolHandler: the eraser's MEDIUM thickness, EraseHandler's halfEraserSize


def contacts(path):
    """The expected events' contacts: [(tool type, [events with the tip down])], in order."""
    out, current = [], None
    for line in open(path):
        if not line.startswith('{"type":'):
            continue
        e = json.loads(line)
        down = e.get("tip") == "down"
        if down and current is None:
            current = (e["tool"]["type"], [])
            out.append(current)
        if not down:
            current = None
        elif e["tool"]["type"] == current[0]:
            current[1].append(e)
    return out


def pair_from_presses(reports, strokes, ink, nominal, gates=(3.0, 3.0, 3.0)):
    """Pairs by content (content_pairing.pair_once), the map first placed where the presses say:
    a stroke's first point is its contact's first event (the press; Xournal++ makes it before any
    motion). The offset content_pairing votes for can slide along a straight stroke; this one
    cannot. The map is refitted on the pairs after each gate."""
    dx = sorted(s["points"][0][0] - apply(nominal, c[1][0]["x"], c[1][0]["y"])[0] for s, c in zip(strokes, ink))
    dy = sorted(s["points"][0][1] - apply(nominal, c[1][0]["x"], c[1][0]["y"])[1] for s, c in zip(strokes, ink))
    m = nominal
    if dx:
        m = [[nominal[0][0], nominal[0][1], dx[len(dx) // 2]], [nominal[1][0], nominal[1][1], dy[len(dy) // 2]]]
    want = [e for _, events in ink for e in events]
    return refit_through_gates(reports, want, m, gates)


def judge_strokes(strokes, ink, nominal, problems, row):
    """Pairs the saved strokes' kept points with the expected pen contacts; returns (pairs, map)."""
    want, stroke_of = [], {}
    for k, (_, events) in enumerate(ink):
        for e in events:
            stroke_of[id(e)] = k
            want.append(e)
    reports = []
    for k, s in enumerate(strokes):
        for pt in take_apart(s):
            if pt["kept"]:
                reports.append({"x": pt["x"], "y": pt["y"], "tip": True, "p": pt["p"], "stroke": k, "index": pt["index"]})
    row["inserted"] = sum(len(s["points"]) for s in strokes) - len(reports)
    row["events"] = len(reports)
    row["expected"] = len(want)
    if not reports:
        problems.append("no saved ink")
        return [], None
    pairs, m = pair_from_presses(reports, strokes, ink, nominal)
    row["paired"] = len(pairs)
    unpaired = len(reports) - len(pairs)
    row["double_events"] = unpaired + max(0, len(strokes) - len(ink))
    if unpaired:
        problems.append("%d of the %d saved points say what no expected event says (position within 3 pt through the fitted map, in order)" % (unpaired, len(reports)))
    crossed = sum(1 for r, w in pairs if r["stroke"] != stroke_of[id(w)])
    if crossed:
        problems.append("%d saved points pair with an event of another contact than their stroke's" % crossed)
    firsts = sum(1 for r, w in pairs if (r["index"] == 0) != (w is ink[stroke_of[id(w)]][1][0]))
    if firsts:
        problems.append("%d strokes do not start at their contact's first event (or a point pairs with a first event)" % firsts)
    if len(pairs) < 3:
        problems.append("fewer than 3 saved points pair with an expected event")
        return pairs, None
    return pairs, m


def judge_positions(pairs, m, reports_whole, row, problems):
    judge_map_residual(m, pairs, reports_whole, RESIDUAL_PT, "pt", row, problems)


def judge_missing(pairs, want_by_stroke, m, row):
    """Expected events with no saved point: within Xournal++'s 0.3 pt of the point before (no point
    added there; where the app's position of an event is, its residual from the map says: the
    largest residual is added), or lost."""
    paired = {id(w): r for r, w in pairs}
    below = lost = 0
    for events in want_by_stroke:
        last = None
        for e in events:
            if id(e) in paired:
                last = paired[id(e)]
                continue
            x, y = apply(m, e["x"], e["y"])
            if last is not None and math.hypot(x - last["x"], y - last["y"]) < MOTION_THRESHOLD + row["residual_px"]:
                below += 1
            else:
                lost += 1
    row["below_threshold"], row["lost"] = below, lost


def judge_pressure(strokes, pairs, ink, pointer, row, problems):
    with_widths = sum(1 for s in strokes if s["widths"])
    if pointer:
        row["pressure_exact"] = None
        row["pressure_worst"] = None
        if with_widths:
            problems.append("pointer input, but %d strokes have pressure widths" % with_widths)
        return
    if with_widths < len(strokes):
        problems.append("%d of %d strokes have no pressure widths: the app got the pen without pressure (a pointer?)" % (len(strokes) - with_widths, len(strokes)))
    order = {}
    for k, (_, events) in enumerate(ink):
        for j, e in enumerate(events):
            order[id(e)] = (k, j)
    first_pair = {}
    for r, w in pairs:
        if r["index"] == 0:
            first_pair[r["stroke"]] = w
    worst, checked, first_max = 0.0, 0, 0
    for r, w in pairs:
        if r["p"] is None:
            continue
        tol = 1.5 * PRESSURE_STEP + 2 * WRITTEN / max(strokes[r["stroke"]]["width"], 1e-9)
        d = abs(r["p"] - w["pressure"])
        if d > tol and r["index"] == 1 and r["stroke"] in first_pair:
            # firstPointPressureChange: the highest pressure from the press to this event.
            k, j0 = order[id(first_pair[r["stroke"]])]
            _, j1 = order[id(w)]
            highest = max(e["pressure"] for e in ink[k][1][j0:j1 + 1])
            if abs(r["p"] - highest) <= tol:
                d = abs(r["p"] - highest)
                first_max += 1
        worst = max(worst, d)
        checked += 1
    row["widths_checked"] = checked
    row["first_width_from_max"] = first_max
    row["pressure_worst"] = round(worst / PRESSURE_STEP, 2)
    row["pressure_exact"] = checked > 0 and worst <= 1.5 * PRESSURE_STEP + 1e-9
    if not checked:
        row["pressure_worst"] = None
        problems.append("pressure: no saved width to check")
    elif not row["pressure_exact"]:
        problems.append("pressure: a saved width differs from W × the expected pressure by up to %s/65535 (allowed 1.5)"
                        % row["pressure_worst"])


def judge_eraser(before, after, erasers, m, row, problems):
    """Ink within an eraser event's square is gone, ink beyond its reach unchanged, nothing new."""
    spots = [apply(m, e["x"], e["y"]) for _, events in erasers for e in events]
    ink_before = [pt for s in before if s["tool"] == "pen" for pt in s["points"]]
    ink_after = [pt for s in after if s["tool"] == "pen" for pt in s["points"]]
    tol = RESIDUAL_PT
    def cheb(p):
        return min(max(abs(p[0] - x), abs(p[1] - y)) for x, y in spots)
    def euclid(p):
        return min(math.hypot(p[0] - x, p[1] - y) for x, y in spots)
    inside = [p for p in ink_before if cheb(p) < ERASER_HALF - tol]
    beyond = [p for p in ink_before if euclid(p) > ERASER_HALF * math.sqrt(2) + tol]
    after_set = {(round(x, 6), round(y, 6)) for x, y in ink_after}
    left = [p for p in ink_after if cheb(p) < ERASER_HALF - tol]
    gone = [p for p in beyond if (round(p[0], 6), round(p[1], 6)) not in after_set]
    segments = [(s["points"][i], s["points"][i + 1]) for s in before if s["tool"] == "pen" for i in range(len(s["points"]) - 1)]
    def off_ink(p):
        best = float("inf")
        for (ax, ay), (bx, by) in segments:
            dx, dy = bx - ax, by - ay
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
            best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
        return best > 1e-4
    new = [p for p in ink_after if off_ink(p)]
    others = sorted({s["tool"] for s in after if s["tool"] != "pen"})
    row["eraser_detail"] = {"events": len(spots), "ink_in_reach": len(inside), "ink_left_in_reach": len(left),
                            "ink_beyond_reach": len(beyond), "ink_beyond_reach_gone": len(gone), "ink_new": len(new),
                            "points_before": len(ink_before), "points_after": len(ink_after)}
    ok = True
    if not inside:
        problems.append("eraser: no ink lay under the expected eraser events (nothing to erase: the check proves nothing)")
        ok = False
    if left:
        problems.append("eraser: %d ink points left under the eraser" % len(left))
        ok = False
    if gone:
        problems.append("eraser: %d ink points beyond the eraser's reach are gone" % len(gone))
        ok = False
    if new or others:
        problems.append("eraser: %d ink points not on the ink before it, strokes of tools %s" % (len(new), others))
        ok = False
    row["eraser"] = ok


def app_track(penkit, curve, trace, pairs, m, row, problems):
    with tempfile.NamedTemporaryFile("w", suffix=".track.jsonl", delete=False) as f:
        for r, w in pairs:
            x, y = invert(m, r["x"], r["y"])
            f.write(json.dumps({"time": w["time"], "x": x, "y": y, "pressure": r["p"] or 0.0, "tip": True, "proximity": 0}) + "\n")
    out = subprocess.run([penkit, "bench", "virtual-tablet", "--pressure-curve", curve, "--app-track", f.name, trace],
                         capture_output=True, text=True)
    os.unlink(f.name)
    if out.returncode != 0:
        problems.append("penkit bench virtual-tablet --app-track: " + out.stderr.strip())
        return
    fig = json.loads(out.stdout)
    for k in ("lag_ms", "rmse_mm", "jitter_rest_mm", "jitter_slow_mm", "jitter_hover_mm"):
        row[k] = fig[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--xopp", required=True)
    ap.add_argument("--before-eraser")
    ap.add_argument("--expected", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--output-size", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--path", required=True)
    ap.add_argument("--input", choices=("pen", "pointer"), default="pen")
    ap.add_argument("--zoom", type=float, default=1.0)
    ap.add_argument("--penkit")
    ap.add_argument("--curve", default="0,0.25,0.75,1")
    a = ap.parse_args()
    try:
        after, after_others, page, npages = read_xopp(a.xopp)
        before, before_others = (read_xopp(a.before_eraser)[:2] if a.before_eraser else (after, after_others))
        size = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", a.output_size)
        if not size:
            raise ValueError("--output-size must be WIDTHxHEIGHT in px, not %r" % a.output_size)
        out_w, out_h = int(size.group(1)), int(size.group(2))
        width_mm, height_mm = tablet_size(a.trace)
        expected = contacts(a.expected)
    except (XoppError, OSError, ValueError, KeyError) as e:
        print("xournal-results: %s" % e, file=sys.stderr)
        sys.exit(2)
    problems = []
    ink = [c for c in expected if c[0] == "pen"]
    erasers = [c for c in expected if c[0] == "eraser"]
    row = {"app": "xournalpp", "server": a.server, "path": a.path, "input": a.input}
    strokes = [s for s in before if s["tool"] == "pen"]
    row["strokes"], row["expected_strokes"] = len(strokes), len(ink)
    if len(strokes) != len(ink):
        problems.append("%d pen strokes saved for %d expected contacts" % (len(strokes), len(ink)))
    foreign = sorted({s["tool"] for s in before if s["tool"] != "pen"}) + sorted(set(before_others))
    if foreign:
        problems.append("elements other than pen strokes were saved: %s" % foreign)
    if npages != 1:
        problems.append("%d pages saved, not 1" % npages)
    # The display server's documented map (the tablet's whole area onto its one output), in page
    # points at the zoom; content_pairing moves it to where the page sits and refits it.
    sx, sy = out_w / width_mm / a.zoom, out_h / height_mm / a.zoom
    nominal = [[sx, 0.0, 0.0], [0.0, sy, 0.0]]
    pairs, m = judge_strokes(strokes, ink, nominal, problems, row)
    if m is not None:
        kept = [(r["x"], r["y"]) for r, _ in pairs]
        # Whole-pixel input (a pointer): every point's fraction is the page's offset's.
        fx = {round((x - math.floor(x)) * 1e4) for x, _ in kept}
        fy = {round((y - math.floor(y)) * 1e4) for _, y in kept}
        judge_positions(pairs, m, len(fx) == 1 and len(fy) == 1 and a.zoom == 1, row, problems)
        judge_missing(pairs, [events for _, events in ink], m, row)
        # The zoom the fit found: the output's px per mm over the page's pt per mm, both axes' mean.
        fitted = ((m[0][0] ** 2 + m[1][0] ** 2) ** 0.5 / (out_w / width_mm) + (m[0][1] ** 2 + m[1][1] ** 2) ** 0.5 / (out_h / height_mm)) / 2
        row["zoom"] = round(1 / fitted, 5)
        if abs(row["zoom"] - a.zoom) > 0.01 * a.zoom:
            problems.append("zoom: the fit finds %.4f, the session set %.4f (Ctrl+0 not applied before the pen?)" % (row["zoom"], a.zoom))
    judge_pressure(strokes, pairs, ink, a.input == "pointer", row, problems)
    row["hover"] = None     # a .xopp keeps no hover
    row["buttons"] = None   # nor barrel buttons
    if not erasers:
        row["eraser"] = None
    elif m is None:
        row["eraser"] = False
        problems.append("eraser: no map to place the eraser by")
    elif not a.before_eraser:
        row["eraser"] = False
        problems.append("eraser: the trace has an eraser contact but no --before-eraser file to compare with")
    else:
        judge_eraser(before, after, erasers, m, row, problems)
    if a.penkit and m is not None and a.input == "pen":
        app_track(a.penkit, a.curve, a.trace, pairs, m, row, problems)
    row["delay_ms_p50"] = None
    print("desktop-result " + json.dumps(row))
    if problems:
        print("xournalpp/%s/%s: %s" % (a.server, a.path, "; ".join(problems)), file=sys.stderr)
        sys.exit(1)


main()
