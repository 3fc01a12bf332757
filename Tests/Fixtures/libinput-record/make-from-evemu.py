#!/usr/bin/env python3
"""Writes the events of bundled evemu traces in `libinput record` (version 1) layout.

penkit's own fixture generator, written from libinput's documented record format, so the YAML
reader can be checked against the evemu reader on the same real events. A capture by a real
`libinput record` belongs next to these files when one exists (see README.md).

usage: make-from-evemu.py OUT.yml TRACE.evemu [TRACE.evemu ...] [--max-frames N]
"""
import sys

EV_NAMES = {0: "EV_SYN", 1: "EV_KEY", 2: "EV_REL", 3: "EV_ABS", 4: "EV_MSC", 5: "EV_SW",
            0x11: "EV_LED", 0x12: "EV_SND", 0x14: "EV_REP", 0x15: "EV_FF"}


def read_evemu(path):
    dev = {"name": "", "id": [0, 0, 0, 0], "codes": {}, "abs": {}, "props": [], "events": []}
    offsets = {}
    for line in open(path):
        if line.startswith("N: "):
            dev["name"] = line[3:].strip()
        elif line.startswith("I: "):
            dev["id"] = [int(x, 16) for x in line[3:].split()]
        elif line.startswith("P: ") or line.startswith("B: "):
            fields = line[3:].split("#")[0].split()
            slot = "P" if line[0] == "P" else int(fields.pop(0), 16)
            for byte in fields:
                base = offsets.get(slot, 0)
                offsets[slot] = base + 1
                for bit in range(8):
                    if int(byte, 16) & (1 << bit):
                        if slot == "P":
                            dev["props"].append(base * 8 + bit)
                        elif slot != 0:
                            dev["codes"].setdefault(slot, []).append(base * 8 + bit)
        elif line.startswith("A: "):
            f = line[3:].split()
            dev["abs"][int(f[0], 16)] = [int(x) for x in f[1:]] + [0] * (6 - len(f))
        elif line.startswith("E: "):
            f = line[3:].split("#")[0].split()
            sec, usec = f[0].split(".")
            dev["events"].append((int(sec) * 1000000 + int(usec), int(f[1], 16), int(f[2], 16), int(f[3])))
    dev["codes"][0] = list(range(16))  # libevdev reports every EV_SYN code
    return dev


def frames(events, limit):
    frame = []
    for ev in events:
        frame.append(ev)
        if ev[1] == 0 and ev[2] == 0:
            yield frame
            frame = []
            limit -= 1
            if limit == 0:
                return
    if frame:
        yield frame


def main():
    args = sys.argv[1:]
    limit = -1
    if "--max-frames" in args:
        i = args.index("--max-frames")
        limit = int(args[i + 1])
        del args[i:i + 2]
    out, paths = args[0], args[1:]
    devices = [read_evemu(p) for p in paths]
    offset = min(d["events"][0][0] for d in devices if d["events"])
    w = open(out, "w").write
    w("# libinput record\nversion: 1\nndevices: %d\nlibinput:\n  version: \"1.22.1\"\n  git: \"unknown\"\n" % len(devices))
    w("system:\n  os: \"debian:12\"\n  kernel: \"6.1.0-27-amd64\"\n  dmi: \"dmi:svnpenkit:pnfixture:\"\n")
    w("devices:\n")
    for n, d in enumerate(devices):
        w("- node: /dev/input/event%d\n  evdev:\n" % (10 + n))
        w("    # Name: %s\n" % d["name"])
        w("    # ID: bus 0x%04x vendor 0x%04x product 0x%04x version 0x%04x\n" % tuple(d["id"]))
        x, y = d["abs"].get(0), d["abs"].get(1)
        if x and y and x[4] and y[4]:
            w("    # Size in mm: %dx%d\n" % ((x[1] - x[0]) // x[4], (y[1] - y[0]) // y[4]))
        w("    # Supported Events:\n")
        for t in sorted(d["codes"]):
            w("    # Event type %d (%s)\n" % (t, EV_NAMES.get(t, "?")))
        w("    # Properties:\n")
        w("    name: \"%s\"\n" % d["name"])
        w("    id: [%d, %d, %d, %d]\n" % tuple(d["id"]))
        w("    codes:\n")
        for t in sorted(d["codes"]):
            w("      %d: [%s] # %s\n" % (t, ", ".join(str(c) for c in d["codes"][t]), EV_NAMES.get(t, "?")))
        w("    absinfo:\n")
        for c in sorted(d["abs"]):
            w("      %d: [%d, %d, %d, %d, %d]\n" % ((c,) + tuple(d["abs"][c][:5])))
        w("    properties: [%s]\n" % ", ".join(str(p) for p in d["props"]))
        w("  udev:\n    properties:\n    - ID_INPUT=1\n    - ID_INPUT_TABLET=1\n")
        w("  quirks:\n  events:\n  # Current time is 02:50:00\n")
        for frame in frames(d["events"], limit):
            w("  - evdev:\n")
            for (t, ty, code, value) in frame:
                t -= offset
                w("    - [%3d, %6d, %3d, %3d, %7d] # %s\n" % (t // 1000000, t % 1000000, ty, code, value, EV_NAMES.get(ty, "?")))


main()
