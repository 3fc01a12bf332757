#!/usr/bin/env python3
"""How much libinput's 4-sample smoothing delays x/y, measured on a trace.

Decodes TRACE twice with `penkit replay --events --json` (smoothing on and off),
then finds the time shift tau that best maps the smoothed positions onto the raw
path (raw interpolated at t - tau), over the frames where the pen moves.
Usage: scripts/smoothing-delay.py PENKIT TRACE...
"""
import json
import subprocess
import sys


def events(penkit, trace, smoothing):
    args = [penkit, "replay", trace, "--events", "--json"] + ([] if smoothing else ["--no-smoothing"])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def interpolate(track, t):
    lo, hi = 0, len(track) - 1
    if t <= track[0][0] or t >= track[-1][0]:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if track[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    (t0, x0, y0), (t1, x1, y1) = track[lo], track[hi]
    if t1 - t0 > 20000:  # no interpolation across gaps (proximity changes)
        return None
    a = (t - t0) / (t1 - t0)
    return x0 + a * (x1 - x0), y0 + a * (y1 - y0)


def main():
    penkit, traces = sys.argv[1], sys.argv[2:]
    for trace in traces:
        smooth = [(e["time"], e["x"], e["y"]) for e in events(penkit, trace, True) if e["type"] == "axis"]
        raw = [(e["time"], e["x"], e["y"]) for e in events(penkit, trace, False) if e["type"] == "axis"]
        if len(raw) < 10:
            print("%s: too few axis events" % trace)
            continue
        intervals = sorted(b[0] - a[0] for a, b in zip(raw, raw[1:]) if b[0] > a[0])
        median_interval = intervals[len(intervals) // 2]
        best = None
        for tau in range(0, 30001, 250):
            errors = []
            for t, x, y in smooth:
                p = interpolate(raw, t - tau)
                if p is not None:
                    errors.append((p[0] - x) ** 2 + (p[1] - y) ** 2)
            if errors:
                rms = (sum(errors) / len(errors)) ** 0.5
                if best is None or rms < best[1]:
                    best = (tau, rms)
        zero = [((lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2)(interpolate(raw, t)))
                for t, x, y in smooth if interpolate(raw, t) is not None]
        print("%s: delay %.2f ms = %.2f report intervals (median interval %.2f ms); "
              "RMS smoothed-vs-raw %.3f mm at 0 delay, %.3f mm at best shift" % (
                  trace.split("/")[-1], best[0] / 1000, best[0] / median_interval, median_interval / 1000,
                  (sum(zero) / len(zero)) ** 0.5, best[1]))


if __name__ == "__main__":
    main()
