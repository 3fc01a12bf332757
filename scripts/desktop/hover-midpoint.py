#!/usr/bin/env python3
"""Usage: hover-midpoint.py TRACE SPEED. Prints when (seconds into the trace played at SPEED) the
pen is halfway between its last proximity-in (BTN_TOOL_PEN 1) and the first contact (BTN_TOUCH 1)
after it: the desktop guest's fail-safe kills penkitd there, while the pen hovers. Exits 1 with the
reason when the trace has no such hover."""
import sys

BTN_TOOL_PEN, BTN_TOUCH = 0x140, 0x14A


def main(trace, speed):
    first = enter = touch = None
    for line in open(trace):
        p = line.split()
        if p[:1] != ["E:"]:
            continue
        t, typ, code, value = float(p[1]), int(p[2], 16), int(p[3], 16), int(p[4])
        first = t if first is None else first
        if typ == 1 and code == BTN_TOOL_PEN and value == 1:
            enter, touch = t, None
        elif typ == 1 and code == BTN_TOUCH and value == 1 and enter is not None and touch is None:
            touch = t
    if enter is None or touch is None:
        sys.exit("hover-midpoint: %s: no proximity-in followed by a contact" % trace)
    print("%.3f" % (((enter + touch) / 2 - first) / speed))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n")[0])
    main(sys.argv[1], float(sys.argv[2]))
