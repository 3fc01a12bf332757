#!/usr/bin/env python3
"""Plays the expected events' contacts of one tool as X11 pointer input (xdotool, XTest): the
host's stand-in for the pen where no uinput device can be made (no pressure, whole pixels).

    xournal-pointer-play.py EVENTS.jsonl TRACE.evemu WIDTHxHEIGHT TOOL

Each event of TOOL (pen or eraser) goes to the output through the display server's documented map
(the tablet's whole area onto the output, as sway and Xorg's libinput driver map it), rounded to
whole pixels: a move, the button pressed at the tip-down event, released before the tip-up
event's move (a pen's tip-up report says no contact; a pointer's move with the button still down
would be drawn). Hover events move the pointer only."""
import json, subprocess, sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().split("\n\n")[1])
    events_path, trace, size, tool = sys.argv[1:]
    out_w, out_h = (int(v) for v in size.split("x"))
    axes = {}
    for line in open(trace):
        p = line.split()
        if p[:1] == ["A:"] and p[1] in ("00", "01"):
            axes[p[1]] = (int(p[3]) - int(p[2])) / int(p[6])
    sx, sy = out_w / axes["00"], out_h / axes["01"]
    args, down = [], False
    for line in open(events_path):
        if not line.startswith('{"type":'):
            continue
        e = json.loads(line)
        if e["tool"]["type"] != tool or (e["type"] == "proximity" and e.get("state") == "out"):
            continue
        x, y = str(round(e["x"] * sx)), str(round(e["y"] * sy))
        if e["tip"] == "up" and down:
            args += ["mouseup", "1"]
            down = False
        args += ["mousemove", x, y]
        if e["tip"] == "down" and not down:
            args += ["mousedown", "1"]
            down = True
    if down:
        args += ["mouseup", "1"]
    if not args:
        sys.exit("xournal-pointer-play: no %s events in %s" % (tool, events_path))
    # One xdotool process: its commands run in order, each move a separate XTest event.
    subprocess.run(["xdotool"] + args, check=True)


main()
