#!/usr/bin/env python3
"""Judges what one app got on one display server and path in the desktop guest
(scripts/vm/desktop-guest.sh), and prints its `desktop-result {json}` row.

The app's log holds the pen as the app's own API reported it (Chromium: PointerEvents and their
coalesced events, scripts/desktop/pointer-log.html). The expected events are what the display
server's libinput should report for the played trace (`penkit bench virtual-tablet --events`: path
b, penkit's virtual tablet, for `virtual`; path a, the tablet read directly, for `direct`). Only the
last proximity is judged (the first is the warm-up, scripts/vm/concat-traces.sh says why).

- events: the app's pen reports in the judged proximity; one per libinput event expected (each
  kernel report that changes something gives one), so that they pair in order;
- positions: an affine map from the expected positions (mm) to the app's (px), fitted by least
  squares on the virtual path; its largest residual must be ≤ 0.5 px (the direct path reuses it);
- pressure_exact: in contact, the app's pressure equals the expected force to the app's resolution
  (Wayland's and X11's 16 bits: 1/65535, with float rounding);
- hover: the app got the expected hover reports with no button and pressure 0;
- double_events: pen reports beyond the expected ones, plus any other pointer during the run;
- lag_ms, rmse_mm, jitter_*: `penkit bench virtual-tablet --app-track` of the app's pen (the
  app's px through the inverse map, at the paired report's trace time) against the real pen;
- delay_ms_p50: from the kernel's report (penkit replay's write, CLOCK_MONOTONIC) to the app's event
  time on the same clock, median over the judged reports.
Exits 1, with the reasons on stderr, when a check fails; the row is printed either way."""
import argparse, json, os, re, statistics, subprocess, sys

RESIDUAL_PX = 0.5
PRESSURE_STEP = 1 / 65535


def app_lines(path):
    """Chromium's console lines: `..."pe {json}", source: ...`."""
    out = []
    for line in open(path, errors="replace"):
        m = re.search(r'"pe (\{.*\})", source:', line)
        if m:
            out.append(json.loads(m.group(1)))
    return out


def chromium_reports(events):
    """The pen's reports in the last proximity: each pointermove's coalesced samples (or itself),
    each pointerdown and pointerup; between the last pen pointerover and its pointerout."""
    pens = [e for e in events if e["kind"] == "pen"]
    starts = [i for i, e in enumerate(pens) if e["type"] == "pointerover"]
    if not starts:
        return [], pens, []
    last = pens[starts[-1]:]
    reports, down_up = [], []
    for e in last:
        if e["type"] == "pointermove":
            reports.extend(e["c"] or [e])
        elif e["type"] in ("pointerdown", "pointerup"):
            reports.append({k: e[k] for k in ("x", "y", "p", "tx", "ty", "b", "t")})
            down_up.append((e["x"], e["y"]))
        elif e["type"] == "pointerout":
            break
    return reports, pens, down_up


def expected_reports(path):
    events = [json.loads(l) for l in open(path) if l.startswith('{"type":')]
    starts = [i for i, e in enumerate(events) if e["type"] == "proximity" and e.get("state") == "in"]
    last = events[starts[-1]:]
    return [e for e in last if not (e["type"] == "proximity" and e.get("state") == "out")]


def fit_affine(src, dst):
    """Least squares dst ≈ [a b c; d e f]·[x y 1]: two 3×3 normal-equation solves."""
    def solve(m, v):
        m = [row[:] + [v[i]] for i, row in enumerate(m)]
        for c in range(3):
            p = max(range(c, 3), key=lambda r: abs(m[r][c]))
            m[c], m[p] = m[p], m[c]
            for r in range(3):
                if r != c:
                    f = m[r][c] / m[c][c]
                    m[r] = [a - f * b for a, b in zip(m[r], m[c])]
        return [m[i][3] / m[i][i] for i in range(3)]
    rows = [(x, y, 1.0) for x, y in src]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    out = []
    for k in range(2):
        atb = [sum(r[i] * d[k] for r, d in zip(rows, dst)) for i in range(3)]
        out.append(solve(ata, atb))
    return out


def line_fit(xs, ys):
    """Least squares y ≈ a·x + b."""
    n = len(xs); mx = sum(xs) / n; my = sum(ys) / n
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return a, my - a * mx


def apply(m, x, y):
    return (m[0][0] * x + m[0][1] * y + m[0][2], m[1][0] * x + m[1][1] * y + m[1][2])


def invert(m, u, v):
    a, b, c = m[0]; d, e, f = m[1]
    det = a * e - b * d
    u, v = u - c, v - f
    return ((e * u - b * v) / det, (-d * u + a * v) / det)


def tablet_size(trace):
    """The tablet's width and height in mm, from the trace's ABS_X and ABS_Y (range / resolution)."""
    axes = {}
    for line in open(trace):
        p = line.split()
        if p[:1] == ["A:"] and p[1] in ("00", "01"):
            axes[p[1]] = (int(p[3]) - int(p[2])) / int(p[6])
    return axes["00"], axes["01"]


def report_times(trace):
    """Each SYN_REPORT's trace time (µs), in order: the frames penkit replay writes."""
    times = []
    for line in open(trace):
        p = line.split()
        if p[:1] == ["E:"] and p[2:4] == ["0000", "0000"] and int(p[4], 16) == 0:
            times.append(round(float(p[1]) * 1e6))
    return times


def main():
    ap = argparse.ArgumentParser()
    for name in ("app", "server", "path", "log", "clock", "trace", "expected", "direct-expected", "speed", "map", "penkit", "curve", "output-size"):
        ap.add_argument("--" + name, required=name != "map")
    a = ap.parse_args()
    problems = []
    events = app_lines(a.log)
    reports, pens, down_up = chromium_reports(events)
    want = expected_reports(a.expected if a.path == "virtual" else a.direct_expected)
    others = [e for e in events if e["kind"] != "pen"]
    ids = sorted({e["id"] for e in pens})
    row = {"app": a.app, "server": a.server, "path": a.path, "events": len(reports)}
    if not reports:
        problems.append("no pen reports in the app's log (%d pointer events: %s)"
                        % (len(events), sorted({(e["kind"], e["type"]) for e in events})))
    # Pairing: the app's reports need not be one per libinput event (an app may merge frames), so
    # each is paired with the expected event it lands on through the display server's documented
    # map (the tablet's whole area onto the output: --output-size), searching forward in order.
    # The affine map is then fitted on the pairs, not assumed.
    # A first map from three landmarks every app reports: the proximity-in (the first report), the
    # tip down and the tip up (the app's pointerdown and pointerup); then every report is paired
    # with the expected event it lands on through that map, searching forward in order.
    nominal = None
    downs = [i for i, w in enumerate(want) if w["type"] == "tip" and w.get("state") == "down"]
    ups = [i for i, w in enumerate(want) if w["type"] == "tip" and w.get("state") == "up"]
    if reports and downs and ups and down_up:
        src3 = [(want[j]["x"], want[j]["y"]) for j in (0, downs[0], ups[-1])]
        dst3 = [(reports[0]["x"], reports[0]["y"]), down_up[0], down_up[-1]]
        # Axis-aligned (a scale and an offset per axis): a display server maps the tablet's area
        # onto an output rectangle, and the window sits at an offset in it.
        nominal = [line_fit([p[0] for p in src3], [q[0] for q in dst3]), line_fit([p[1] for p in src3], [q[1] for q in dst3])]
        nominal = [[nominal[0][0], 0.0, nominal[0][1]], [0.0, nominal[1][0], nominal[1][1]]]
    else:
        problems.append("no proximity-in, tip down and tip up in the app's judged proximity to start the map from")
    pairs, k = [], 0
    for r in reports if nominal else []:
        best = None
        for j in range(k, min(k + 80, len(want))):
            px, py = apply(nominal, want[j]["x"], want[j]["y"])
            d = ((px - r["x"]) ** 2 + (py - r["y"]) ** 2) ** 0.5
            if best is None or d < best[0]:
                best = (d, j)
        if best and best[0] <= 3.0:
            pairs.append((r, want[best[1]]))
            k = best[1] + 1
    row["paired"] = len(pairs)
    row["expected"] = len(want)
    unpaired = len(reports) - len(pairs)
    paired = len(pairs) >= 3
    if unpaired:
        problems.append("%d of the app's %d pen reports match no expected event (within 3 px of the output map, in order)" % (unpaired, len(reports)))
    if len(pairs) < len(want):
        row["merged"] = len(want) - len(pairs)
    n = len(pairs)
    src = [(w["x"], w["y"]) for _, w in pairs]
    dst = [(r["x"], r["y"]) for r, _ in pairs]
    m = fit_affine(src, dst) if n >= 3 else None
    residual = None
    if m and n:
        residual = max(((apply(m, *s)[0] - d[0]) ** 2 + (apply(m, *s)[1] - d[1]) ** 2) ** 0.5 for s, d in zip(src, dst))
        row["map"] = [[round(v, 6) for v in r] for r in m]
        row["residual_px"] = round(residual, 4)
        if residual > RESIDUAL_PX:
            problems.append("positions: the largest residual of the affine map is %.3f px (> %.1f)" % (residual, RESIDUAL_PX))
    touching = [(r, w) for r, w in pairs if w["tip"] == "down"]
    worst = max((abs(r["p"] - w.get("pressure", 0)) for r, w in touching), default=None)
    row["pressure_exact"] = worst is not None and worst <= 1.5 * PRESSURE_STEP
    if not row["pressure_exact"]:
        problems.append("pressure: the app's differs from the expected force by up to %s (allowed 1.5/65535)" % worst)
    row["eraser"] = None  # the played trace has no eraser end
    row["buttons"] = None  # nor barrel buttons
    hovering = [(r, w) for r, w in pairs if w["tip"] == "up"]
    row["hover"] = bool(hovering) and all(r["b"] == 0 and r["p"] == 0 for r, _ in hovering)
    if not row["hover"]:
        problems.append("hover: %d hover reports, buttons/pressure %s" % (len(hovering), sorted({(r["b"], r["p"]) for r, _ in hovering})[:5]))
    # Two app reports for one expected event would be double input; so would a second pen id in
    # the judged proximity. The mouse pointer that sway moves to where the pen left (after its
    # proximity-out) is reported apart (cursor_events), not as a tool.
    used = [id(w) for _, w in pairs]
    last_ids = {e["id"] for e in pens[[i for i, e in enumerate(pens) if e["type"] == "pointerover"][-1]:]} if reports else set()
    row["double_events"] = len(used) - len(set(used)) + unpaired + (len(last_ids) - 1 if last_ids else 0)
    row["cursor_events"] = len(others)
    if len(last_ids) > 1:
        problems.append("a second pen in the judged proximity: ids %s" % sorted(last_ids))
    # The app's pen against the real pen, as the bench judges its paths.
    if m and paired:
        track = os.path.splitext(a.log)[0] + ".track.jsonl"
        with open(track, "w") as f:
            for r, w in pairs:
                x, y = invert(m, r["x"], r["y"])
                f.write(json.dumps({"time": w["time"], "x": x, "y": y, "pressure": r["p"], "tip": w["tip"] == "down", "proximity": 0}) + "\n")
        out = subprocess.run([a.penkit, "bench", "virtual-tablet", "--pressure-curve", a.curve, "--app-track", track, a.trace],
                             capture_output=True, text=True)
        if out.returncode != 0:
            problems.append("penkit bench virtual-tablet --app-track: " + out.stderr.strip())
        else:
            fig = json.loads(out.stdout)
            for k in ("lag_ms", "rmse_mm", "jitter_rest_mm", "jitter_slow_mm", "jitter_hover_mm"):
                row[k] = fig[k]
    # Kernel report → app event, on CLOCK_MONOTONIC.
    clock = open(a.clock, errors="replace").read()
    origin = re.search(r'"pe-ready (\{.*?\})", source:', clock)
    offset_file = os.path.join(os.path.dirname(a.clock), "clock-offset.txt")
    offset = re.search(r"^clock-offset-ms (\S+)", open(offset_file).read(), re.M) if os.path.exists(offset_file) else None
    times_file = os.path.splitext(a.log)[0] + ".times"
    if origin and offset and os.path.exists(times_file) and paired:
        written = [int(l) for l in open(times_file) if l.strip()]
        frame_of = {t: i for i, t in enumerate(report_times(a.trace))}
        origin_ms = json.loads(origin.group(1))["origin"] - float(offset.group(1))
        delays = [origin_ms + r["t"] - written[frame_of[w["time"]]] / 1000 for r, w in pairs
                  if w["time"] in frame_of and frame_of[w["time"]] < len(written)]
        row["delay_ms_p50"] = round(statistics.median(delays), 3) if delays else None
    print("desktop-result " + json.dumps(row))
    if problems:
        print("%s/%s/%s: %s" % (a.app, a.server, a.path, "; ".join(problems)), file=sys.stderr)
        sys.exit(1)


main()
