"""Issue #42's goal for each app and display server, judged on a `virtual` row: the app's pen is
≤ 1 ms behind the real pen, at least 5 ms less than the `direct` path's, with jitter no worse.

Why against the direct path on the same reports, not the `direct` row as it came: an app under
software emulation loses reports (Chromium on sway delivered 214 of 346 in one loaded run and 341
in an idle one), and which it loses changes the figures. Jitter is each sample's distance from a
quadratic through its 9 neighbours in time, so a pen with reports missing is measured over wider
gaps and looks rougher: in that loaded run Chromium's `virtual` row, missing 132 reports, had a rest
jitter of 0.0163 mm against its `direct` row's 0.0112 (missing 28), while penkit's own figures for
the played trace are 0.0076 against 0.0084. Two rows that lost different reports measure the loss,
not the path.

So the reference is the direct path's pen at the same reports the app delivered on `virtual`: at
each paired report's time, the display server's event for the real tablet (libinput's, from
penkit's libinput-exact decoder, `direct.expected.jsonl`; under xf86-input-wacom the driver's, from
wacom_model), as it stood at that report. An app that gives whole pixels (Chromium on X11) rounds
the reference the same way, through the same fitted map, so that both carry the app's rounding.
Both are measured by the same command (`penkit bench virtual-tablet --app-track`) against the real
pen; jitter may exceed the reference's by the bench's own tolerance (× 1.02, issue #43's goals):
the lag goals fail the run, jitter is recorded (`judge` says why).

The row also keeps the `direct` row's own figures beside it (desktop.sh prints both), so the
comparison the issue states literally is there to read."""
import json
import math
import subprocess

from content_pairing import apply, invert

LAG_LIMIT_MS = 1.0
LAG_LEAD_MS = 5.0
JITTER_TOLERANCE = 1.02
FIGURES = ("lag_ms", "rmse_mm", "jitter_rest_mm", "jitter_slow_mm", "jitter_hover_mm")


def state_at(events):
    """A function from a report time (µs) to the newest of `events` at or before it: the display
    server's pen as it stood then (libinput sends an event only when something changed)."""
    ordered = sorted((e for e in events if "x" in e), key=lambda e: e["time"])
    times = [e["time"] for e in ordered]

    def at(t):
        lo, hi = 0, len(times)
        while lo < hi:
            mid = (lo + hi) // 2
            if times[mid] <= t:
                lo = mid + 1
            else:
                hi = mid
        return ordered[lo - 1] if lo else None
    return at


def reference_track(pairs, m, direct_events, whole):
    """The direct path's pen at the trace times of the app's paired reports, as track lines
    (`--app-track`'s format): (x, y) in mm, rounded to whole pixels through `m` when `whole`."""
    at = state_at(direct_events)
    lines = []
    for _, w in pairs:
        d = at(w["time"])
        if d is None:
            continue
        x, y = d["x"], d["y"]
        if whole:
            u, v = apply(m, x, y)
            x, y = invert(m, math.floor(u + 0.5), math.floor(v + 0.5))
        lines.append({"time": w["time"], "x": x, "y": y, "pressure": d.get("pressure", 0.0),
                      "tip": w["tip"] == "down", "proximity": 0})
    return lines


def figures(penkit, curve, trace, track_lines, track_path):
    """`penkit bench virtual-tablet --app-track` of the lines: the bench's figures, or an error."""
    with open(track_path, "w") as f:
        for line in track_lines:
            f.write(json.dumps(line) + "\n")
    out = subprocess.run([penkit, "bench", "virtual-tablet", "--pressure-curve", curve, "--app-track", track_path, trace],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, "penkit bench virtual-tablet --app-track: " + out.stderr.strip()
    fig = json.loads(out.stdout)
    return {k: fig[k] for k in FIGURES}, None


def judge(row, reference, problems):
    """The goals on a `virtual` row whose own figures are in `row`, against `reference` (the direct
    path's on the same reports); records each in `row["goals"]`. The lag goals fail the row (a
    reason in `problems`). Jitter is recorded and printed, not failed: on the played drag penkit's
    hover jitter is 0.0293 mm against libinput's 0.0289 (`penkit bench virtual-tablet`, issue #43's
    filter), within × 1.02 with every report but not when an app loses some, so the run would
    pass or fail with the host's load (docs/virtual-tablet.md, "The goals, judged")."""
    goals = {}
    goals["lag_within_1ms"] = row["lag_ms"] <= LAG_LIMIT_MS
    goals["lag_5ms_less_than_direct"] = reference["lag_ms"] - row["lag_ms"] >= LAG_LEAD_MS
    if not goals["lag_within_1ms"]:
        problems.append("lag %.1f ms behind the real pen (goal ≤ %.0f ms)" % (row["lag_ms"], LAG_LIMIT_MS))
    if not goals["lag_5ms_less_than_direct"]:
        problems.append("lag %.1f ms against the direct path's %.1f ms on the same reports (goal: %.0f ms less)"
                        % (row["lag_ms"], reference["lag_ms"], LAG_LEAD_MS))
    worse = [k for k in ("jitter_rest_mm", "jitter_slow_mm", "jitter_hover_mm") if row[k] > reference[k] * JITTER_TOLERANCE]
    goals["jitter_no_worse"] = not worse
    row["direct_same_reports"] = {k: round(v, 4) for k, v in reference.items()}
    row["goals"] = goals
    if worse:
        row["jitter_worse"] = worse


def summary(rows):
    """One line per `virtual` row: its goals, its figures, the direct path's on the same reports,
    and the `direct` row's as it came (the comparison the issue states, loss and all)."""
    direct_rows = {(r["app"], r["server"]): r for r in rows if r.get("path") == "direct"}
    lines = []
    for r in rows:
        if r.get("path") != "virtual" or "goals" not in r:
            continue
        d = direct_rows.get((r["app"], r["server"]), {})
        def fig(x):
            return "lag %s ms, jitter %s / %s / %s mm" % tuple(x.get(k, "?") for k in FIGURES if k != "rmse_mm")
        lines.append("desktop-goals %s on %s: %s; virtual %s; direct on the same reports %s; direct row as it came (%s of %s reports) %s"
                     % (r["app"], r["server"], ", ".join("%s %s" % (k, "holds" if v else "FAILS") for k, v in r["goals"].items()),
                        fig(r), fig(r["direct_same_reports"]), d.get("paired", "?"), d.get("expected", "?"), fig(d)))
    return lines


if __name__ == "__main__":
    import sys
    rows = []
    for path in sys.argv[1:]:
        for line in open(path):
            if line.startswith("desktop-result "):
                rows.append(json.loads(line[len("desktop-result "):]))
    print("\n".join(summary(rows)))
