#!/usr/bin/env python3
"""Writes Tests/Fixtures/surface-pairing/vectors.json: the cases SurfacePairing is checked
against in Swift, JavaScript and Python (docs/apps.md).

Each case is a slice of a real trace as `penkit replay --json` prints it, placed in an app
window by a map chosen here: the app's events are the frames' positions under that map, their
times floored on the app's clock, one motion event in ten dropped, the window moved mid-way.
The expected values come from the trace and the chosen maps, never from a pairing:

  inputs        penkit's frames and the app's events, in the order they arrive (app events 0.5 ms
                after their frame);
  truth         the map per device, from a frame time (µs) on;
  window        the surface's size; a report whose true position lies outside it is not the app's;
  allowed       [device, t] of every frame that may be delivered (inside, per the truth);
  expectReady   whether the motion spreads enough for a map at all;
  agreed        what the Swift implementation gave when the file was written (ready after how many
                app events, frames delivered): the JavaScript and Python ones must give the same.

    python3 scripts/surface-pairing-vectors.py PATH/TO/penkit [SWIFT-TEST-OUTPUT] > Tests/Fixtures/surface-pairing/vectors.json

SWIFT-TEST-OUTPUT: the output of `swift test --filter SharedVectorTests`, whose lines
"surface-pairing vector NAME: ready after N, M frames delivered" become the cases' `agreed`.
"""
import json
import math
import re
import subprocess
import sys

REPO = __file__.rsplit("/scripts/", 1)[0]


def replay(penkit, trace):
    out = subprocess.run([penkit, "replay", "--json", "%s/traces/%s" % (REPO, trace)], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"type":"frame"')]


def affine(quarter_turns, scale, mirrored, tx, ty):
    c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][quarter_turns % 4]
    a, b, cc, d = c * scale, s * scale, -s * scale, c * scale
    if mirrored:
        a, cc = -a, -cc  # then x' → −x'
    return [a, b, cc, d, tx, ty]


def apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def trim(frame, device, shift, predicted=False):
    """The frame as penkit sends it, with only its last predicted sample (and that only where a case
    checks predictions), to keep the file small."""
    f = dict(frame)
    f["device"] = device
    f["sample"] = dict(frame["sample"], t=frame["sample"]["t"] + shift)
    f["predicted"] = [dict(p, t=p["t"] + shift) for p in frame.get("predicted", [])[-1:]] if predicted else []
    if not predicted:
        f.pop("expectedError", None)
    f.pop("liftProbability", None)
    return f


class Case:
    def __init__(self, name, note):
        self.name, self.note = name, note
        self.frames = []          # (device, frame)
        self.truth = {}           # device → [[from, map]]
        self.window = None
        self.clock = 0.0
        self.resolution = 1.0     # app time unit, ms
        self.quantum = 1.0 / 256  # app position unit
        self.delay_us = lambda i: 0  # when the app's event is stamped after the report (virtual tablet)
        self.sources = {}

    def map_at(self, device, t):
        chosen = self.truth[device][0][1]
        for start, m in self.truth[device]:
            if start <= t:
                chosen = m
        return chosen

    def inside(self, device, f):
        x, y = apply(self.map_at(device, f["sample"]["t"]), f["sample"]["x"], f["sample"]["y"])
        return 0 <= x <= self.window[0] and 0 <= y <= self.window[1]

    def build(self, expect_ready, drop=0.1):
        inputs, allowed, rng = [], [], 0x2545F4914F6CDD1D
        last = {}

        def dropped():
            nonlocal rng
            rng = (rng * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            return (rng >> 11) / float(1 << 53) < drop

        def app(device, f, proximity, at_us, index):
            s = f["sample"]
            px, py = (f["delivered"]["x"], f["delivered"]["y"]) if "delivered" in f else (s["x"], s["y"])
            x, y = apply(self.map_at(device, s["t"]), px, py)
            stamp = at_us + self.delay_us(index)
            t_ms = math.floor((stamp / 1000.0 + self.clock) / self.resolution) * self.resolution
            event = {"t_ms": round(t_ms, 6), "proximity": proximity, "source": self.sources.get(device, "")}
            if proximity != "out":
                q = self.quantum
                event["x"], event["y"] = (round(x / q) * q, round(y / q) * q) if q else (x, y)
            inputs.append((stamp + 500, len(inputs), {"app": event}))

        for index, (device, f) in enumerate(self.frames):
            t = f["sample"]["t"]
            inputs.append((t, len(inputs), {"frame": f}))
            inside = self.inside(device, f)
            if inside:
                allowed.append([device, t])
            previous = last.get(device)
            new = previous is None or t > previous[0]["sample"]["t"] + 30000
            if new and previous is not None and previous[1]:
                app(device, previous[0], "out", previous[0]["sample"]["t"] + 1000, index)
            if inside:
                if new or not (previous and previous[1]):
                    app(device, f, "in", t, index)
                elif not dropped():
                    app(device, f, "move", t, index)
            elif not new and previous and previous[1]:
                app(device, f, "out", t, index)
            last[device] = (f, inside)
        inputs.sort(key=lambda item: (item[0], item[1]))
        return {
            "name": self.name, "note": self.note,
            "window": {"width": self.window[0], "height": self.window[1]},
            "truth": {str(d): [{"from": start, "transform": m} for start, m in segs] for d, segs in self.truth.items()},
            "expectReady": expect_ready,
            "inputs": [item[2] for item in inputs],
            "allowed": allowed,
        }


def place(case, device, frames, quarter_turns, scale, mirrored, move=None, margin=40.0, cut=0.75):
    """Truth maps for `frames` of `device`: the slice's mapped box starts `margin` units in, the
    window cuts off the box's right quarter, and the window moves by `move` mm' worth mid-way."""
    m = affine(quarter_turns, scale, mirrored, 0, 0)
    pts = [apply(m, f["sample"]["x"], f["sample"]["y"]) for f in frames]
    m[4] = margin - min(p[0] for p in pts)
    m[5] = margin - min(p[1] for p in pts)
    segs = [[0, m]]
    if move:
        moved = list(m)
        moved[4] += move[0] * scale
        moved[5] += move[1] * scale
        segs.append([frames[len(frames) * 6 // 10]["sample"]["t"], moved])
    case.truth[device] = segs
    width = margin + cut * (max(p[0] for p in pts) - min(p[0] for p in pts))
    height = 2 * margin + max(p[1] for p in pts) - min(p[1] for p in pts)
    return width, height


def main():
    penkit = sys.argv[1]
    cases = []

    dth = replay(penkit, "wacom-dth2242-pen.evemu")
    cintiq = replay(penkit, "wacom-cintiq-22hdt-pen.evemu")
    hover = replay(penkit, "wacom-intuos4-6x9-stylus-hover.evemu")
    genius = replay(penkit, "genius-easypen-i405x.evemu")

    c = Case("tablet-v2-rotated-moved", "wacom-dth2242-pen frames 0-399: 90° and ×2.5, app times floored to ms "
             "on libinput's clock, 10 % of motion dropped, the window moves by (6, -4) mm' worth at 60 %")
    fs = [trim(f, 1, 0, predicted=True) for f in dth[:400]]
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 1, 2.5, False, move=(6, -4))
    cases.append(c.build(True))

    c = Case("browser-clock-mirrored", "wacom-cintiq-22hdt-pen frames 0-399: 270°, ×4.2, mirrored; app times on "
             "another clock (+12345678.9 ms) to 0.1 ms, positions unrounded floats (CSS px)")
    fs = [trim(f, 1, 0) for f in cintiq[:400]]
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 3, 4.2, True, move=(-3, 5))
    c.clock, c.resolution, c.quantum = 12345678.9, 0.1, 0
    cases.append(c.build(True))

    c = Case("virtual-tablet-delivered", "wacom-intuos4-6x9-stylus-hover: frames carry `delivered` (here the "
             "previous report's position, as an unsmoothed or differently smoothed stream would differ), the app's "
             "events carry delivered positions, stamped 0.3-0.9 ms after the report when penkitd wrote them")
    fs = []
    previous = None
    for f in hover:
        g = trim(f, 1, 0)
        p = previous or f["sample"]
        g["delivered"] = {"x": p["x"], "y": p["y"]}
        previous = f["sample"]
        fs.append(g)
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 0, 3.78, False, move=(5, 2))
    c.delay_us = lambda i: 300 + (i * 137) % 600
    cases.append(c.build(True))

    c = Case("virtual-tablet-write-time", "wacom-intuos4-6x9-stylus-hover: frames carry `delivered` with `t`, when "
             "penkitd wrote the report (0.3-10 ms after it, in order, at least 1.1 ms apart; under emulation up to 28 ms); the app's events are "
             "stamped with that write time (a compositor's time for the virtual tablet's report), floored to ms")
    fs, written = [], 0
    for i, f in enumerate(hover):
        g = trim(f, 1, 0)
        written = max(g["sample"]["t"] + 300 + (i * 7919) % 9700, written + 1100)
        g["delivered"] = {"x": f["sample"]["x"], "y": f["sample"]["y"], "t": written}
        fs.append(g)
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 2, 3.3, False)
    # The kernel stamps the event as penkitd writes it, just before penkitd reads its clock.
    c.delay_us = lambda i: fs[i]["delivered"]["t"] - fs[i]["sample"]["t"] - 20
    cases.append(c.build(True))

    c = Case("x-server-late-stamps", "wacom-dth2242-pen frames 0-399: 0° ×2.8; app times are an X server's, "
             "stamped as it reads each report: 0.2-1.6 ms after it, and one in 12 5-25 ms late")
    fs = [trim(f, 1, 0) for f in dth[:400]]
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 0, 2.8, False)
    c.delay_us = lambda i: 5000 + (i * 7919) % 20000 if i % 12 == 5 else 200 + (i * 613) % 1400
    cases.append(c.build(True))

    c = Case("two-tablets", "wacom-dth2242-pen frames 400-649 (device 1, source pen-a, 0° ×3) and wacom-cintiq-22hdt-pen frames "
             "400-649 (device 2, source pen-b, 180° ×2, shifted to follow the first), one app window, times floored to ms")
    a = [trim(f, 1, 0) for f in dth[400:650]]
    shift = a[-1]["sample"]["t"] + 200000 - cintiq[400]["sample"]["t"]
    b = [trim(f, 2, shift) for f in cintiq[400:650]]
    c.frames = [(1, f) for f in a] + [(2, f) for f in b]
    wa = place(c, 1, a, 0, 3.0, False)
    wb = place(c, 2, b, 2, 2.0, False)
    c.window = (max(wa[0], wb[0]), max(wa[1], wb[1]))
    c.sources = {1: "pen-a", 2: "pen-b"}
    cases.append(c.build(True))

    c = Case("a-line-is-not-enough", "genius-easypen-i405x: the pen moves along a line (0.19 mm across), "
             "so no map can be told: nothing may be delivered")
    fs = [trim(f, 1, 0) for f in genius[:200]]
    c.frames = [(1, f) for f in fs]
    c.window = place(c, 1, fs, 0, 3.0, False, cut=1.0)
    cases.append(c.build(False))

    if len(sys.argv) > 2:
        agreed = {}
        for line in open(sys.argv[2]):
            m = re.match(r"surface-pairing vector (\S+): ready after (\w+), (\d+) frames delivered", line)
            if m:
                agreed[m.group(1)] = {"readyAfter": None if m.group(2) == "never" else int(m.group(2)),
                                      "deliveredFrames": int(m.group(3))}
        for case in cases:
            if case["name"] in agreed:
                case["agreed"] = agreed[case["name"]]
    json.dump({"about": __doc__.split("\n\n")[0] + " " + __doc__.split("\n\n")[2].replace("\n", " "),
               "tolerance": 0.01, "cases": cases}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
