#!/usr/bin/env python3
"""Turns a hid-recorder recording (.hid) of a real tablet into an evemu recording of what the
real kernel driver makes of it. Runs as root where /dev/uhid exists, e.g. in the test VM:

    scripts/vm/run.sh OUT_DIR python3 scripts/hid-to-evemu.py IN.hid OUT_DIR/OUT.evemu [NAME_PART]

Why through the kernel: a HID report is the tablet's own wire format; what libinput reads is
what the kernel's driver (wacom, hid-uclogic, ...) makes of it. Decoding the reports here would
be a second, untested copy of the driver. Instead the recording's report descriptor creates a
UHID device, its reports are written one by one, and the evdev events each report produced are
read back right away (uhid hands an input report to the driver inside write(), so its events
are already queued when write() returns).

Timing: every evdev frame gets the time of the HID report that produced it, so the result
keeps the tablet's own report timing, not the replay's (a software-emulated VM is slow and
irregular). The device description is `evemu-describe` of the node the driver made, so ranges
and resolutions are the driver's.

NAME_PART picks the evdev node when the driver makes several (default "Pen").
"""
import ctypes
import errno
import fcntl
import glob
import os
import select
import struct
import subprocess
import sys
import threading
import time

UHID_DESTROY = 1
UHID_START = 2
UHID_STOP = 3
UHID_OPEN = 4
UHID_CLOSE = 5
UHID_OUTPUT = 6
UHID_GET_REPORT = 9
UHID_GET_REPORT_REPLY = 10
UHID_CREATE2 = 11
UHID_INPUT2 = 12
UHID_SET_REPORT = 13
UHID_SET_REPORT_REPLY = 14

UHID_DATA_MAX = 4096
# struct uhid_event is packed: u32 type, then the largest request (uhid_create2_req).
UHID_EVENT_SIZE = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 4 + UHID_DATA_MAX

EV_SYN = 0
SYN_REPORT = 0
INPUT_EVENT = struct.Struct("llHHi")  # struct input_event on 64-bit Linux


def parse_recording(path):
    """The report descriptor, name, ids and the timed reports of a hid-recorder file."""
    descriptor, name, ids, reports = None, "hid-to-evemu device", None, []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("R: "):
                if descriptor is not None:
                    sys.exit(f"{path}:{number}: a second device; split the recording first")
                fields = line[3:].split()
                descriptor = bytes(int(b, 16) for b in fields[1:])
                if len(descriptor) != int(fields[0]):
                    sys.exit(f"{path}:{number}: descriptor says {fields[0]} bytes, has {len(descriptor)}")
            elif line.startswith("N: "):
                name = line[3:]
            elif line.startswith("I: "):
                bus, vendor, product = (int(v, 16) for v in line[3:].split()[:3])
                ids = (bus, vendor, product)
            elif line.startswith("E: "):
                fields = line[3:].split()
                data = bytes(int(b, 16) for b in fields[2:])
                if len(data) != int(fields[1]):
                    sys.exit(f"{path}:{number}: report says {fields[1]} bytes, has {len(data)}")
                reports.append((float(fields[0]), data))
    if descriptor is None or ids is None:
        sys.exit(f"{path}: no R: (descriptor) or I: (ids) line: not a hid-recorder recording")
    if not reports:
        sys.exit(f"{path}: no E: (report) lines")
    return descriptor, name, ids, reports


class UHIDDevice:
    def __init__(self, descriptor, name, ids):
        self.fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC)
        self.started = threading.Event()
        self.done = False
        bus, vendor, product = ids
        body = struct.pack("<128s64s64sHHIIII", name.encode()[:127], b"hid-to-evemu", b"",
                           len(descriptor), bus, vendor, product, 0, 0)
        self._write(UHID_CREATE2, body + descriptor)
        # The driver asks for feature reports while it probes (wacom sets the tablet's mode);
        # uhid waits for userspace's answer, so a thread answers: no data for a GET_REPORT
        # (the driver then keeps its defaults), success for a SET_REPORT.
        self.thread = threading.Thread(target=self._answer, daemon=True)
        self.thread.start()

    def _write(self, kind, body):
        event = struct.pack("<I", kind) + body
        os.write(self.fd, event.ljust(UHID_EVENT_SIZE, b"\0"))

    def _answer(self):
        while not self.done:
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if not ready:
                continue
            event = os.read(self.fd, UHID_EVENT_SIZE)
            kind = struct.unpack_from("<I", event)[0]
            if kind == UHID_START:
                self.started.set()
            elif kind == UHID_GET_REPORT:
                request_id = struct.unpack_from("<I", event, 4)[0]
                self._write(UHID_GET_REPORT_REPLY, struct.pack("<IHH", request_id, errno.EIO, 0))
            elif kind == UHID_SET_REPORT:
                request_id = struct.unpack_from("<I", event, 4)[0]
                self._write(UHID_SET_REPORT_REPLY, struct.pack("<IH", request_id, 0))

    def input(self, data):
        self._write(UHID_INPUT2, struct.pack("<H", len(data)) + data)

    def close(self):
        self.done = True
        self._write(UHID_DESTROY, b"")
        self.thread.join(timeout=2)
        os.close(self.fd)


def wait_for_node(name_part, bound_s=20.0):
    """The event node of the newest uhid device whose name contains name_part."""
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        for sysname in glob.glob("/sys/devices/virtual/misc/uhid/*/input/input*/name"):
            with open(sysname) as f:
                if name_part in f.read():
                    for node in glob.glob(os.path.join(os.path.dirname(sysname), "event*")):
                        path = "/dev/input/" + os.path.basename(node)
                        if os.path.exists(path):
                            return path
        time.sleep(0.05)
    names = [open(n).read().strip() for n in glob.glob("/sys/devices/virtual/misc/uhid/*/input/input*/name")]
    sys.exit(f"no event node named like {name_part!r} within {bound_s:.0f} s (the driver made: {names})")


def drain(fd):
    """Every event queued on a non-blocking evdev fd."""
    events = []
    while True:
        try:
            chunk = os.read(fd, INPUT_EVENT.size * 64)
        except BlockingIOError:
            return events
        for offset in range(0, len(chunk), INPUT_EVENT.size):
            _, _, kind, code, value = INPUT_EVENT.unpack_from(chunk, offset)
            events.append((kind, code, value))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    name_part = sys.argv[3] if len(sys.argv) == 4 else "Pen"
    descriptor, name, ids, reports = parse_recording(source)
    subprocess.run(["modprobe", "uhid"], check=False)
    device = UHIDDevice(descriptor, name, ids)
    try:
        if not device.started.wait(20):
            sys.exit("the kernel never started the uhid device (no driver bound?)")
        node = wait_for_node(name_part)
        fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        # The driver may be done probing a little after the node appears; start clean.
        time.sleep(0.5)
        drain(fd)
        header = subprocess.run(["evemu-describe", node], check=True, capture_output=True, text=True).stdout
        lines, frames, pending = [], 0, []
        for stamp, data in reports:
            device.input(data)
            for kind, code, value in drain(fd):
                pending.append((kind, code, value))
                if kind == EV_SYN and code == SYN_REPORT:
                    seconds = int(stamp)
                    micros = int(round((stamp - seconds) * 1e6))
                    for k, c, v in pending:
                        lines.append(f"E: {seconds}.{micros:06d} {k:04x} {c:04x} {v}\n")
                    frames += 1
                    pending = []
        os.close(fd)
    finally:
        device.close()
    if frames == 0:
        sys.exit(f"{source}: the driver made no evdev frames from {len(reports)} reports")
    with open(target, "w") as out:
        out.write(header)
        out.writelines(lines)
    print(f"{source}: {len(reports)} reports -> {frames} frames on {node} -> {target}")


if __name__ == "__main__":
    main()
