#!/usr/bin/env python3
"""A pressure bridge for penkitd: reads `T FORCE` lines from stdin and hands them to penkitd
as a pressure source for one device (docs/protocol.md, "Pressure sources").

T is when the pen measured FORCE, in microseconds on CLOCK_MONOTONIC (the clock of penkitd's
event times: time.monotonic_ns() // 1000 in Python); FORCE is 0..1. Both may also be separated
by a comma, and a line `(T, FORCE)` is read the same way. Replace stdin with the channel your
pen's pressure really comes over (a Bluetooth characteristic, a second device node).

usage: pressure-bridge.py [--socket PATH] --device ID [--latency US] [--jitter US] [--serial N] < readings

Python 3 standard library only. Exit status: 0 when stdin ends, 1 when penkitd cuts the source
off (its error is printed), 2 when it refuses the source.
"""
import argparse
import json
import os
import select
import socket
import sys


def default_socket():
    if os.environ.get("PENKIT_SOCKET"):
        return os.environ["PENKIT_SOCKET"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    user = os.path.join(runtime, "penkit", "penkit.sock") if runtime else None
    return user if user and os.path.exists(user) else "/run/penkit/penkit.sock"


def parse_reading(line):
    fields = line.strip().strip("()").replace(",", " ").split()
    if len(fields) != 2:
        raise ValueError("expected `T FORCE`, got %r" % line.strip())
    return int(fields[0]), float(fields[1])


def server_lines(sock, pending):
    """Lines penkitd has sent so far (non-blocking)."""
    while select.select([sock], [], [], 0)[0]:
        chunk = sock.recv(65536)
        if not chunk:
            pending.append(b"\n")
            break
        pending.append(chunk)
    data = b"".join(pending)
    pending.clear()
    *lines, rest = data.split(b"\n")
    if rest:
        pending.append(rest)
    return [json.loads(line) for line in lines if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", default=default_socket())
    parser.add_argument("--device", type=int, required=True, help="penkitd's device id (hello, device messages)")
    parser.add_argument("--latency", type=int, default=20000, help="typical delay of a reading, µs")
    parser.add_argument("--jitter", type=int, default=10000, help="how far a reading's delay and time may stray, µs")
    parser.add_argument("--serial", type=int, help="only this tool's samples (its serial)")
    args = parser.parse_args()

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(args.socket)
    declaration = {"type": "pressure-source", "version": 1, "device": args.device,
                   "latency": args.latency, "jitter": args.jitter}
    if args.serial is not None:
        declaration["serial"] = args.serial
    sock.sendall((json.dumps(declaration) + "\n").encode())

    # Wait for penkitd's answer: attached, or an error saying why not.
    pending, attached = [], False
    while not attached:
        select.select([sock], [], [], 10)
        for message in server_lines(sock, pending):
            if message.get("type") == "error":
                print("penkitd refused the source: %s: %s" % (message.get("code"), message.get("message")), file=sys.stderr)
                return 2
            attached = message.get("type") == "pressure-source" and message.get("state") == "attached"
    print("attached to device %d" % args.device, file=sys.stderr)

    for line in sys.stdin:
        if not line.strip():
            continue
        t, force = parse_reading(line)
        try:
            sock.sendall((json.dumps({"type": "pressure", "t": t, "force": force}) + "\n").encode())
        except (BrokenPipeError, ConnectionResetError):
            pass
        for message in server_lines(sock, pending):
            if message.get("type") == "error":
                print("penkitd: %s: %s" % (message.get("code"), message.get("message")), file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
