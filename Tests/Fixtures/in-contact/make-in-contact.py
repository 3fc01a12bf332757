#!/usr/bin/env python3
"""Cuts a bundled evemu trace so that its first proximity starts already in contact.

The first frame of the result is the whole device state (every absolute axis, the tool key,
BTN_TOUCH and the serial) as it stood after the trace's first BTN_TOUCH press, stamped with that
frame's time; the frames after it follow unchanged up to and including the tool's proximity-out.
This is what the kernel delivers when a pen (or the eraser end, flipped) lands on the surface
before the digitizer saw it hover.

usage: make-in-contact.py TRACE.evemu OUT.evemu
"""
import sys

TOOL_KEYS = range(0x140, 0x148)  # BTN_TOOL_PEN .. BTN_TOOL_LENS
BTN_TOUCH = 0x14A


def main(src, dst):
    header, frames, frame = [], [], []
    for line in open(src):
        if not line.startswith("E: "):
            if not frames and not frame:
                header.append(line)
            continue
        fields = line[3:].split("#")[0].split()
        event = (fields[0], int(fields[1], 16), int(fields[2], 16), int(fields[3], 0 if fields[3].startswith("0x") else 10))
        frame.append(event)
        if event[1] == 0 and event[2] == 0:
            frames.append(frame)
            frame = []

    absolute, keys, serial = {}, {}, None
    for index, frame in enumerate(frames):
        for _, etype, code, value in frame:
            if etype == 3:
                absolute[code] = value
            elif etype == 1:
                keys[code] = value
            elif etype == 4 and code == 0:
                serial = value
        if any(e[1] == 1 and e[2] == BTN_TOUCH and e[3] == 1 for e in frame):
            start = index
            break
    else:
        sys.exit("no BTN_TOUCH press in " + src)

    tool = next(code for code in TOOL_KEYS if keys.get(code) == 1)
    time = frames[start][0][0]
    first = [(time, 3, code, value) for code, value in sorted(absolute.items())]
    first += [(time, 1, code, 1) for code, value in sorted(keys.items()) if value == 1]
    if serial is not None:
        first.append((time, 4, 0, serial))
    first.append((time, 0, 0, 0))

    out = [first]
    for frame in frames[start + 1:]:
        out.append(frame)
        if any(e[1] == 1 and e[2] == tool and e[3] == 0 for e in frame):
            break

    with open(dst, "w") as f:
        f.writelines(header)
        f.write("# Cut by make-in-contact.py from %s: starts in contact (see README.md).\n" % src.split("/")[-1])
        for frame in out:
            for time, etype, code, value in frame:
                f.write("E: %s %04x %04x %d\n" % (time, etype, code, value))


if __name__ == "__main__":
    main(*sys.argv[1:])
