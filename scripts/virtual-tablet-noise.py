#!/usr/bin/env python3
"""Each recording's position noise, for the virtual tablet's jitter filter (docs/virtual-tablet.md,
"Noise per device").

The real pen's positions come from `penkit bench virtual-tablet --events` with the jitter filter
set to pass positions through (`--filter 1,1,1e9,0,1`: a mean of one, no fit, a cutoff so high
that stage 2 moves each output to within 1e-10 mm of its input), as libinput reads them back from
the virtual tablet (to its micrometre). For every run of four reports in one proximity and one
contact state, the third difference p0 - 3 p1 + 3 p2 - p3 has a variance of 20 sigma^2 per axis
for white noise of sigma, and a pen's own motion adds only its jerk over three reports. Samples
are classed by the pen's speed as the bench classes them (its position 10 ms either side), and
sigma is printed per axis for a pen at rest in contact and hovering (< 5 mm/s), in mm and in
device units (the resolution an evemu recording declares for ABS_X and ABS_Y; for another format,
the smallest step the recording shows on that axis), with the report rate (the median interval between reports libinput
delivers: a report that changes nothing is not delivered, and some tablets drop them).

    scripts/virtual-tablet-noise.py PENKIT traces/*.evemu

Prints one Markdown table row per recording and class with at least MIN_SAMPLES samples.
"""
import bisect
import json
import math
import os
import statistics
import subprocess
import sys

PASS_THROUGH = "1,1,1e9,0,1"
REST_SPEED = 5.0  # mm/s, the bench's class "at rest"
MIN_SAMPLES = 10


def reports(penkit, trace):
    """(time µs, x mm, y mm, touching, proximity number) for each report libinput delivers."""
    run = subprocess.run([penkit, "bench", "virtual-tablet", "--events", "--filter", PASS_THROUGH, trace],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{trace}: penkit bench virtual-tablet failed: {run.stderr.strip()}")
    out = run.stdout
    rows, proximity = [], 0
    for event in map(json.loads, out.splitlines()):
        if event["type"] == "proximity" and event["state"] == "in":
            proximity += 1
        if event["type"] in ("axis", "tip", "proximity"):
            rows.append((event["time"], event["x"], event["y"], event["tip"] == "down", proximity))
    return rows


def speeds(rows):
    """The pen's speed at each report (mm/s), from its position 10 ms either side in the same proximity."""
    by_proximity = {}
    for row in rows:
        by_proximity.setdefault(row[4], []).append(row)

    def position(track, t):
        times = [r[0] for r in track]
        i = bisect.bisect_left(times, t)
        if i == 0 or i == len(track):
            return None
        a, b = track[i - 1], track[i]
        f = (t - a[0]) / (b[0] - a[0]) if b[0] > a[0] else 0
        return (a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]))

    result = []
    for row in rows:
        track = by_proximity[row[4]]
        before, after = position(track, row[0] - 10_000), position(track, row[0] + 10_000)
        result.append(None if before is None or after is None
                      else math.hypot(after[0] - before[0], after[1] - before[1]) / 0.02)
    return result


def declared_units(trace):
    """mm per device unit on x and y, from an evemu recording's absinfo lines (A: 00/01 min max fuzz flat res)."""
    units = {}
    with open(trace, errors="replace") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 7 and parts[0] == "A:" and parts[1] in ("00", "01") and int(parts[6]) > 0:
                units[parts[1]] = 1 / int(parts[6])
    return units.get("00"), units.get("01")


def smallest_step(values):
    steps = [abs(b - a) for a, b in zip(values, values[1:]) if abs(b - a) > 1e-6]
    return min(steps) if steps else None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    penkit = sys.argv[1]
    print("| recording | reports/s | unit x / y (mm) | class | samples | sigma x mm | sigma y mm | sigma x / y (units) |")
    print("|---|---|---|---|---|---|---|---|")
    for trace in sys.argv[2:]:
        rows = reports(penkit, trace)
        if len(rows) < 8:
            continue
        intervals = [b[0] - a[0] for a, b in zip(rows, rows[1:]) if b[0] > a[0] and b[4] == a[4]]
        rate = 1e6 / statistics.median(intervals)
        unit_x, unit_y = declared_units(trace)
        unit_x = unit_x or smallest_step([r[1] for r in rows])
        unit_y = unit_y or smallest_step([r[2] for r in rows])
        speed = speeds(rows)
        classes = {"at rest": [], "hovering": []}
        for i in range(3, len(rows)):
            window = rows[i - 3:i + 1]
            if len({r[4] for r in window}) > 1 or len({r[3] for r in window}) > 1:
                continue
            if speed[i] is None or speed[i] >= REST_SPEED:
                continue
            d3 = [window[3][k] - 3 * window[2][k] + 3 * window[1][k] - window[0][k] for k in (1, 2)]
            classes["at rest" if rows[i][3] else "hovering"].append(d3)
        for name, samples in classes.items():
            if len(samples) < MIN_SAMPLES:
                continue
            sx = math.sqrt(sum(d[0] ** 2 for d in samples) / len(samples) / 20)
            sy = math.sqrt(sum(d[1] ** 2 for d in samples) / len(samples) / 20)
            units = f"{sx / unit_x:.2f} / {sy / unit_y:.2f}" if unit_x and unit_y else "-"
            print(f"| {os.path.basename(trace)} | {rate:.0f} | {unit_x or 0:.3f} / {unit_y or 0:.3f} | {name} | "
                  f"{len(samples)} | {sx:.4f} | {sy:.4f} | {units} |")


if __name__ == "__main__":
    main()
