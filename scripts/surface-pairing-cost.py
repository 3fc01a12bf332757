#!/usr/bin/env python3
"""What the Python client's SurfacePairing costs per report while its offset search cannot decide
(docs/apps.md, "What the search costs"): a benchmark, not a test.

Three pens, 1500 reports each at 200 Hz, the app's event 3 ms after each frame: one resting within
0.01 mm (a hover held still, a tap); one drawing a straight line and one circling at an even pace
(both wide, but every shift along a line fits as well, and a circle shifted along itself is the
circle turned, which an affine map fits as well). Prints the median, the mean and the largest time per report (a frame and its event).

    python3 scripts/surface-pairing-cost.py
"""
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from penkit import AppPenEvent, SurfacePairing  # noqa: E402


def cost(place, reports=1500):
    pairing = SurfacePairing(surface_width=1280, surface_height=720)
    spent = []
    for i in range(reports):
        x, y = place(i)
        t = 1_000_000 + i * 5000
        frame = {"type": "frame", "device": 1, "sample": {"t": t, "x": x, "y": y, "force": 0.3},
                 "delivered": {"x": x, "y": y, "t": t + 700}}
        started = time.perf_counter()
        pairing.handle_message(frame)
        pairing.handle_app_event(AppPenEvent(t // 1000 + 3, 10 * x, 10 * y, "move", "pen"))
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent), statistics.mean(spent), max(spent), pairing.clock_offset


for name, place in (("resting", lambda i: (100 + 0.001 * (i % 7), 50 + 0.001 * (i % 5))),
                    ("straight line", lambda i: (100 + 0.05 * i, 50 + 0.05 * i)),
                    ("circling", lambda i: (100 + 5 * math.cos(i / 20), 50 + 5 * math.sin(i / 20)))):
    median, mean, worst, offset = cost(place)
    print("surface-pairing cost, %s pen: median %.4f ms per report, mean %.2f ms, largest %.1f ms, offset %s"
          % (name, median, mean, worst, "found" if offset is not None else "not found"))
