"""The GTK 4 example's own pairing, judged (issue 42: "the GTK 4 example and the canvas learn the
map (≤ 0.5 px) and draw penkit's frames under the app's own pen").

The example (examples/gtk4-pen.py --log) logs each map change of its SurfacePairing ("map": the
affine map from penkit's tablet mm to its window's px, learnt from penkit's frames and GTK's
own events), each of penkit's frames it got ("penkit-frame": the sample's time and mm), and each
frame it drew ("ink": the sample's time and where it drew it, px). The judge's own map (fitted by
content from GTK's reports against what penkit wrote, scripts/desktop/content_pairing.py) is the
truth here: it comes from the app's own pen and the trace, never from the pairing.

- pairing_ready: the example said its map is ready (a "map" line with ready true);
- pairing_px: the largest distance between the example's last ready map and the judge's over the
  judged proximity's expected positions, ≤ 0.5 px;
- ink_frames, ink_px: how many of penkit's frames the example drew in the judged proximity, and
  the largest distance of one from where the judge's map puts that frame's sample: ≤ 0.5 px
  (penkit's frames drawn under the app's own pen, through the display server's map).
"""
import json
import math

from content_pairing import apply

LIMIT_PX = 0.5
# Where a failed check fails the run. Under sway the example's pairing does not form yet, and that
# is reported, not judged: GTK 4.8's Wayland backend gives each tablet event the time of the frame
# before (gdkdevice-wayland.c makes the motion event with the last frame's time, as it does the
# pressure), and wlroots 0.15 stamps a tablet frame when it sends it, not with the report's time, so
# an event's time says neither its report nor the virtual tablet's write (docs/virtual-tablet.md).
JUDGED_SERVERS = ("xorg",)


def judge_pairing(log, want, m, server):
    """(row fields, problems) for the example's log `log` on `server`, the judged proximity's
    expected events `want` (mm) and the judge's map `m` (mm → px); problems only where judged
    (JUDGED_SERVERS), else in the row's `pairing_unjudged`."""
    row, problems = _judge(log, want, m)
    row["pairing_judged"] = server in JUDGED_SERVERS
    if not row["pairing_judged"] and problems:
        row["pairing_unjudged"] = "; ".join(problems)
        problems = []
    return row, problems


def _judge(log, want, m):
    lines = [json.loads(l) for l in open(log) if l.startswith("{")]
    row, problems = {}, []
    ready = [l for l in lines if l["signal"] == "map" and l.get("ready")]
    row["pairing_ready"] = bool(ready)
    if not ready:
        changes = [l.get("change") for l in lines if l["signal"] == "map"]
        problems.append("pairing: the example's map never became ready (map changes: %s)" % (changes or "none"))
        return row, problems
    a, b, c, d, tx, ty = ready[-1]["transform"]
    def distance(x, y, px, py):
        qx, qy = apply(m, x, y)
        return math.hypot(px - qx, py - qy)
    row["pairing_px"] = round(max(distance(w["x"], w["y"], a * w["x"] + c * w["y"] + tx, b * w["x"] + d * w["y"] + ty)
                                  for w in want), 4)
    if row["pairing_px"] > LIMIT_PX:
        problems.append("pairing: the example's map is %.3f px off the one its own pen's reports fit (allowed %.1f)"
                        % (row["pairing_px"], LIMIT_PX))
    # The frames it drew after the map was ready, each against its sample through the judge's map.
    samples = {l["t"]: (l["x"], l["y"]) for l in lines if l["signal"] == "penkit-frame" and "x" in l}
    ink = [l for l in lines if l["signal"] == "ink" and l.get("t") in samples]
    row["ink_frames"] = len(ink)
    if not ink:
        problems.append("pairing: the example drew none of penkit's frames")
        return row, problems
    row["ink_px"] = round(max(distance(*samples[l["t"]], l["x"], l["y"]) for l in ink), 4)
    if row["ink_px"] > LIMIT_PX:
        problems.append("pairing: a frame the example drew lies %.3f px from its sample through the map of its own pen (allowed %.1f)"
                        % (row["ink_px"], LIMIT_PX))
    return row, problems
