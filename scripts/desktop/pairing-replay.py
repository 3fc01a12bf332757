#!/usr/bin/env python3
"""Replays a GTK example log (examples/gtk4-pen.py --log, from the desktop guest) through the Python
SurfacePairing offline, in the order the example logged them: penkit's frames (their `delivered`)
and GTK's pen events with their backlogs. Prints when the map became ready, if it did.

--shift-times: each GTK entry takes the time of the entry after it. GTK 4's Wayland backend makes a
tablet motion event in tablet_tool_handle_motion with pointer_info.time, which only the tablet
frame event that follows sets (tablet_tool_handle_frame, gdk/wayland/gdkdevice-wayland.c): each
motion carries the previous report's time. --slack: the pairing's time_slack (ms; default 1).

    python3 scripts/desktop/pairing-replay.py [--shift-times] [--slack MS] LOG
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from penkit import AppPenEvent, SurfacePairing  # noqa: E402
from penkit.surface_pairing import SurfacePairingConfiguration  # noqa: E402


def gtk_entries(line):
    """A GTK pen event's reports: its backlog, then the event itself (as the example pairs them)."""
    own = (line["time"], line["x"], line["y"])
    entries = [(b["time"], b["x"], b["y"]) for b in line.get("backlog", [])]
    entries = [e for e in entries if e != own and e[0]]
    return entries + ([own] if line["time"] else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shift-times", action="store_true")
    ap.add_argument("--slack", type=float, default=1.0)
    ap.add_argument("log")
    args = ap.parse_args()
    configuration = SurfacePairingConfiguration()
    configuration.time_slack = args.slack
    pairing = SurfacePairing(configuration=configuration)
    state = {"events": 0, "ready_after": None}

    def note(deliveries):
        if state["ready_after"] is None and any(d.get("type") == "map" and d.get("ready") for d in deliveries):
            state["ready_after"] = state["events"]

    held = None
    with open(args.log) as log:
        for text in log:
            line = json.loads(text)
            signal = line.get("signal")
            if signal == "penkit-frame":
                note(pairing.handle_message({"type": "frame", "device": 1, "delivered": line.get("delivered"),
                                             "sample": {"t": line["t"], "x": line["x"], "y": line["y"], "force": 0.0}}))
            elif signal in ("proximity", "down", "motion", "up"):
                for t, x, y in gtk_entries(line):
                    if args.shift_times:   # the entry before takes this one's time
                        previous, held = held, (x, y)
                        if previous is None:
                            continue
                        x, y = previous
                    state["events"] += 1
                    note(pairing.handle_app_event(AppPenEvent(t, x, y, "move", "pen")))
    print("pairing-replay: %s%s, slack %.1f ms: %d app events, map ready %s" % (
        args.log, ", times shifted by one entry" if args.shift_times else "", args.slack, state["events"],
        "after %d" % state["ready_after"] if state["ready_after"] is not None else "never"))


if __name__ == "__main__":
    main()
