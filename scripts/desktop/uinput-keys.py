#!/usr/bin/env python3
"""A keyboard made through uinput (python3-libevdev) that types the key combinations written to a
FIFO, one a line (xdotool's names: ctrl+s, ctrl+shift+e, ctrl+0). For the desktop guest, where a
display server reads every input device with its own libinput: the keys come from a real kernel
device in the server's own keymap, as a person's would.

    uinput-keys.py FIFO ACKS NAME

Prints `uinput-keys-ready: /dev/input/eventN "NAME"` once the device exists; after each combination it
has typed (each key pressed in order, then released in reverse, one report each) it appends the
line to ACKS, so that a writer can wait for it. An unknown key name is refused (a line
`error: ...` in ACKS) without typing anything. Ends on the line `quit` (it holds FIFO open for
writing itself, so that writers may come and go)."""
import os, sys

import libevdev

NAMES = {"ctrl": "KEY_LEFTCTRL", "control": "KEY_LEFTCTRL", "shift": "KEY_LEFTSHIFT", "alt": "KEY_LEFTALT",
         "super": "KEY_LEFTMETA", "return": "KEY_ENTER", "enter": "KEY_ENTER", "escape": "KEY_ESC",
         "esc": "KEY_ESC", "tab": "KEY_TAB", "space": "KEY_SPACE", "delete": "KEY_DELETE"}


def code(name):
    n = name.lower()
    key = NAMES.get(n) or ("KEY_" + n.upper() if len(n) == 1 and n.isalnum() else None) or ("KEY_" + n.upper() if n.startswith("f") and n[1:].isdigit() else None)
    c = libevdev.evbit(key) if key else None
    if c is None:
        raise ValueError("no key named %r" % name)
    return c


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().split("\n\n")[1])
    fifo, acks, name = sys.argv[1:]
    dev = libevdev.Device()
    dev.name = name
    for n in list(NAMES.values()) + ["KEY_%s" % c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"] + ["KEY_F%d" % i for i in range(1, 13)]:
        dev.enable(libevdev.evbit(n))
    try:
        ui = dev.create_uinput_device()
    except OSError as e:
        sys.exit("uinput-keys: cannot make a uinput device (/dev/uinput: modprobe uinput, and root): %s" % e)
    print('uinput-keys-ready: %s "%s"' % (ui.devnode, name), flush=True)
    with os.fdopen(os.open(fifo, os.O_RDWR), "r") as f:
        while True:
            combo = f.readline().strip()
            if combo == "quit":
                break
            if not combo:
                continue
            try:
                keys = [code(k) for k in combo.split("+")]
            except ValueError as e:
                with open(acks, "a") as a:
                    a.write("error: %s\n" % e)
                continue
            syn = libevdev.InputEvent(libevdev.EV_SYN.SYN_REPORT, 0)
            for k in keys:
                ui.send_events([libevdev.InputEvent(k, 1), syn])
            for k in reversed(keys):
                ui.send_events([libevdev.InputEvent(k, 0), syn])
            with open(acks, "a") as a:
                a.write(combo + "\n")


main()
