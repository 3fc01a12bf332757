#!/usr/bin/env python3
"""Checks the desktop guest's judge on the host, before any VM: an app log made from real
libinput events (`penkit bench virtual-tablet --events` of the played trace) through a known map,
with what apps were seen to do (reports lost, a report repeated, pointerdown at the previous
position, whole pixels), must be judged as that map with every check holding; and the same log
with reports moved by 1 px must fail on positions.

    content-pairing-check.py PENKIT PLAYED_TRACE EXPECTED_JSONL DIRECT_EXPECTED_JSONL

The goals on a `virtual` row (scripts/desktop/same_reports.py) are checked too: the virtual tablet's
events hold them against the direct path's on the same reports, and the direct path's own events,
given as if an app got them from the virtual tablet, fail them on lag.

Exits 1 with the reason when the judge gets any of it wrong."""
import json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCALE, OFFSET = (1280 / 223.52, 720 / 139.7), (3.0, -56.0)


def app_log(want, whole, moved, lose, seed=1):
    """Chromium console lines for the last proximity of `want`, as Chromium gave them."""
    rnd = random.Random(seed)
    last = want[[i for i, e in enumerate(want) if e["type"] == "proximity" and e.get("state") == "in"][-1]:]
    lines = ['[1:1:INFO:CONSOLE(1)] "pe-ready {\\"origin\\": 0}", source: x (1)']
    def put(kind, e, b, c=()):
        lines.append('[1:1:INFO:CONSOLE(1)] "pe %s", source: x (1)' % json.dumps(
            {"type": kind, "id": 2, "kind": "pen", "button": -1, **e, "c": list(c)}))
    def sample(e, b, shift=0.0):
        x, y = e["x"] * SCALE[0] + OFFSET[0] + shift, e["y"] * SCALE[1] + OFFSET[1]
        if whole:
            x, y = round(x), round(y)
        p = int(e.get("pressure", 0) * 65535) / 65535 if b else 0   # Wayland's 16 bits, truncated
        return {"x": x, "y": y, "p": p, "tx": round(e.get("tilt_x", 0)), "ty": round(e.get("tilt_y", 0)), "b": b, "t": 0}
    previous = None
    for n, e in enumerate(last):
        if e["type"] == "proximity" and e.get("state") == "out":
            put("pointerout", previous, 0)
            break
        b = int(e["tip"] == "down")
        s = sample(e, b, 1.0 if moved and n % 17 == 5 else 0.0)
        if n == 0:
            put("pointerover", s, 0)
            put("pointermove", s, 0, [s, s])          # the first report, repeated
        elif e["type"] == "tip":
            # pointerdown/up at the previous position; the report itself in the next move.
            put("pointerdown" if b else "pointerup", {**previous, "b": b, "p": s["p"]}, b)
            put("pointermove", s, b, [s])
        elif rnd.random() >= lose:
            put("pointermove", s, b, [s])
        previous = s
    return "\n".join(lines) + "\n"


def judge(penkit, trace, expected, direct, log_text, name):
    d = tempfile.mkdtemp(prefix="penkit-pairing-check-")
    log = os.path.join(d, "chromium-sway-virtual.log")
    with open(log, "w") as f:
        f.write(log_text)
    out = subprocess.run([sys.executable, os.path.join(HERE, "desktop-results.py"), "--app", "chromium", "--server", "sway",
                          "--path", "virtual", "--log", log, "--clock", log, "--trace", trace, "--expected", expected,
                          "--direct-expected", direct, "--speed", "1", "--output-size", "1280x720", "--penkit", penkit,
                          "--curve", "0,0.25,0.75,1"], capture_output=True, text=True)
    row = json.loads(out.stdout.split("desktop-result ", 1)[1]) if "desktop-result " in out.stdout else {}
    return out.returncode, row, out.stderr.strip()


def main():
    penkit, trace, expected, direct = sys.argv[1:5]
    want = [json.loads(l) for l in open(expected) if l.startswith('{"type":')]
    direct_want = [json.loads(l) for l in open(direct) if l.startswith('{"type":')]
    problems = []
    for whole in (False, True):
        code, row, err = judge(penkit, trace, expected, direct, app_log(want, whole, False, 0.3), "whole" if whole else "float")
        m = row.get("map") or [[0, 0, 0], [0, 0, 0]]
        # The judged map against the true one, over the pen's positions: whole pixels fit loosely.
        off = max(((m[0][0] * w["x"] + m[0][1] * w["y"] + m[0][2] - w["x"] * SCALE[0] - OFFSET[0]) ** 2 +
                   (m[1][0] * w["x"] + m[1][1] * w["y"] + m[1][2] - w["y"] * SCALE[1] - OFFSET[1]) ** 2) ** 0.5 for w in want)
        if code != 0 or not row.get("repeated") or row.get("double_events") != 0 or off > (1.0 if whole else 0.01):
            problems.append("%s pixels, 30%% lost: judged %s (exit %d, %.4f px off the true map): %s" % ("whole" if whole else "float", row, code, off, err))
        elif row["paired"] + row["lost"] != row["expected"]:
            problems.append("paired %d + lost %d != expected %d" % (row["paired"], row["lost"], row["expected"]))
        elif not (row.get("goals", {}).get("lag_within_1ms") and row["goals"].get("lag_5ms_less_than_direct")):
            problems.append("%s pixels: the virtual tablet's events do not hold the lag goals: %s" % ("whole" if whole else "float", row))
    # The direct path's events as if an app got them on `virtual`: libinput's smoothing lags, so
    # the lag goals must fail (the judge's reference is not the path under judgement).
    code, row, err = judge(penkit, trace, direct, direct, app_log(direct_want, False, False, 0.0), "direct as virtual")
    if code == 0 or "lag" not in err:
        problems.append("the direct path's events judged as virtual passed the lag goals: exit %d, %s" % (code, err or row))
    code, row, err = judge(penkit, trace, expected, direct, app_log(want, False, True, 0.3), "moved")
    if code == 0 or "positions" not in err:
        problems.append("reports moved by 1 px were not caught on positions: exit %d, %s" % (code, err or row))
    if problems:
        print("content-pairing-check: FAIL:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    print("content-pairing-check: the judge recovers a known map from real libinput events (float and whole pixels, 30% lost, a repeat, Chromium's pointerdown) catches reports 1 px off, and holds the lag goals on the virtual tablet's events but not on libinput's")


main()
