"""The Python client's SurfacePairing (clients/python/penkit) on the scenarios of
scripts/surface-delivery-check.mjs, which checks penkit-surface.js: `penkit replay --json
--late-pressure 150` of traces/wacom-dth2242-pen.evemu, with the app's own pen events made from its
frames (×15 and an offset, on a clock of their own) arriving LAG ms after penkit's messages. For
every stroke delivered to the app:
- its `ended` comes after every frame of it that the app gets, and before its `stroke`;
- every `update` penkit sent for it reaches the app, including those that came before the map was
  ready (the first stroke's) or before the app's pen reached the stroke;
and every stroke some of whose frames reached the app gets its finalized `stroke` too.

Usage: python3 scripts/surface-delivery-check.py PENKIT_BINARY
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))

from penkit.surface_pairing import AppPenEvent, SurfacePairing  # noqa: E402

# The app's pen's lag behind penkit's feed (ms) and the report it enters the surface at: 40 is the
# first stroke's first, so that the map is learned during that stroke, after penkit sent its
# `ended` and some of its updates. The same as the JavaScript check's.
SCENARIOS = [(20, 0), (300, 0), (20, 40), (160, 40)]
KINDS = ("frame", "began", "update", "ended", "stroke")


def check_delivery(lines, lag_ms, enter_at=0):
    messages = [m for m in map(json.loads, lines) if m.get("type") in KINDS]
    frames = [m for m in messages if m["type"] == "frame"]
    clock = 5e6  # the app's clock, ms, against penkit's µs / 1000
    # Each penkit message arrives at the time of the newest frame before it; each frame's pen event
    # lag_ms later. One ordered stream of both.
    stream = []
    now = frames[0]["sample"]["t"] / 1000
    for m in messages:
        if m["type"] == "frame":
            now = m["sample"]["t"] / 1000
        stream.append((now, len(stream), m, None))
    for i, f in enumerate(frames):
        if i < enter_at:
            continue  # the pen over another window until then
        x, y = 15 * f["sample"]["x"] - 3500, 15 * f["sample"]["y"] - 1500
        event = AppPenEvent(f["sample"]["t"] / 1000 + clock, x, y, "in" if i == enter_at else "move", "1")
        stream.append((f["sample"]["t"] / 1000 + lag_ms, len(stream), None, event))
    stream.sort(key=lambda s: (s[0], s[1]))
    pairing = SurfacePairing()
    out = []
    for _, _, message, event in stream:
        out.extend(pairing.handle_app_event(event) if event else pairing.handle_message(message))
    last = frames[-1]
    out.extend(pairing.handle_app_event(AppPenEvent(last["sample"]["t"] / 1000 + clock + 1, 0, 0, "out", "1")))
    out.extend(pairing.finish())

    problems, summary = [], []
    sent = {}
    for m in messages:
        if m["type"] == "update" and m.get("stroke") is not None:
            sent[m["stroke"]] = sent.get(m["stroke"], 0) + 1
    strokes = [d["stroke"]["id"] for d in out if d["type"] == "stroke"]
    if not strokes:
        problems.append("no stroke reached the app")
    for stroke in sorted({d["stroke"] for d in out if d["type"] == "frame" and d.get("stroke") is not None}):
        if stroke not in strokes:
            problems.append(f"stroke {stroke}: frames reached the app, its finalized stroke never")
    for stroke in strokes:
        def at(pred):
            return [i for i, d in enumerate(out) if pred(d)]
        frame_at = at(lambda d: d["type"] == "frame" and d.get("stroke") == stroke)
        ended_at = at(lambda d: d["type"] == "ended" and d["stroke"] == stroke)
        stroke_at = at(lambda d: d["type"] == "stroke" and d["stroke"]["id"] == stroke)[0]
        updates = at(lambda d: d["type"] == "update" and d.get("stroke") == stroke)
        ended = f"after {len([i for i in frame_at if i < ended_at[0]])}" if ended_at else "never"
        summary.append(f"stroke {stroke}: {len(frame_at)} frames, ended {ended}, {len(updates)} of {sent.get(stroke, 0)} updates")
        if len(ended_at) != 1:
            problems.append(f"stroke {stroke}: {len(ended_at)} ended deliveries")
            continue
        late = [i for i in frame_at if i > ended_at[0]]
        if late:
            problems.append(f"stroke {stroke}: ended before {len(late)} of its frames")
        if not ended_at[0] < stroke_at:
            problems.append(f"stroke {stroke}: ended after its stroke")
        if len(updates) != sent.get(stroke, 0):
            problems.append(f"stroke {stroke}: {len(updates)} of {sent.get(stroke, 0)} updates reached the app")
    return problems, summary, len(strokes)


def main():
    if len(sys.argv) != 2:
        print("usage: python3 scripts/surface-delivery-check.py PENKIT_BINARY", file=sys.stderr)
        return 2
    replay = subprocess.run([sys.argv[1], "replay", "--json", "--late-pressure", "150", "traces/wacom-dth2242-pen.evemu"],
                            cwd=ROOT, check=True, capture_output=True, text=True)
    lines = [line for line in replay.stdout.split("\n") if line]
    failed = False
    for lag, enter_at in SCENARIOS:
        problems, summary, strokes = check_delivery(lines, lag, enter_at)
        print(f"surface delivery (Python client), the app's pen {lag} ms behind from report {enter_at} on: "
              f"{strokes} strokes here, {len(problems)} problems")
        for line in summary:
            print("  " + line)
        for problem in problems[:10]:
            print("  problem: " + problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
