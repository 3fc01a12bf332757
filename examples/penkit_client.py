#!/usr/bin/env python3
"""A penkitd client on penkit's Python package (clients/python, standard library only).

Connects to penkitd's Unix socket, subscribes, and prints one line per
finalized stroke (or every message with --all). Protocol: docs/protocol.md.
An app that draws in its own window pairs these frames with its own pen events
through penkit.SurfacePairing (docs/apps.md).

    python3 examples/penkit_client.py [--socket PATH] [--since N] [--count N] [--all]

Runs from a checkout as is (the package is found beside it), or after
`pip install ./clients/python`.
"""
import argparse
import json
import os
import sys

try:
    from penkit import candidate_sockets, discover
except ImportError:  # not installed: the package in this checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
    from penkit import candidate_sockets, discover

# EX_UNAVAILABLE (sysexits.h): no penkitd answered, which is not a usage error (2 here, 64 in penkit).
EXIT_UNAVAILABLE = 69


def describe(stroke_message):
    stroke = stroke_message["stroke"]
    points = stroke["points"]
    length = 0.0
    for a, b in zip(points, points[1:]):
        length += ((b["x"] - a["x"]) ** 2 + (b["y"] - a["y"]) ** 2) ** 0.5
    duration_ms = (points[-1]["t"] - points[0]["t"]) // 1000 if points else 0
    max_force = max((p["force"] for p in points), default=0.0)
    return "stroke #%d id %d %s: %d points, %.1f mm in %d ms, max force %.3f%s" % (
        stroke_message["seq"], stroke["id"], stroke["tool"]["type"], len(points), length,
        duration_ms, max_force, ", cancelled" if stroke.get("cancelled") else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="penkitd's socket (default: the first that answers of "
                        "$PENKIT_SOCKET, $XDG_RUNTIME_DIR/penkit/penkit.sock, /run/penkit/penkit.sock)")
    parser.add_argument("--since", type=int, help="replay finalized strokes after this sequence number")
    parser.add_argument("--count", type=int, help="stop after this many strokes")
    parser.add_argument("--all", action="store_true", help="print every message as JSON")
    args = parser.parse_args()

    try:
        client = discover([args.socket] if args.socket else candidate_sockets())
    except OSError as error:
        print("penkit_client: %s" % error, file=sys.stderr)
        return EXIT_UNAVAILABLE
    messages = iter(client)
    hello = next(messages, None)
    # The server speaks first: hello, or an error when it refuses this client.
    if hello is None or hello["type"] != "hello":
        if hello is not None and hello["type"] == "error":
            print("penkitd: %s: %s" % (hello["code"], hello["message"]), file=sys.stderr)
        else:
            print("penkitd closed the connection", file=sys.stderr)
        return 2
    if args.all:
        print(json.dumps(hello, separators=(",", ":")))
    else:
        print("connected to %s, protocol %d, %d device(s)" % (
            hello["server"], hello["version"], len(hello["devices"])))
    client.subscribe(["frames", "updates", "strokes", "buttons", "devices"] if args.all else ["strokes"],
                     since=args.since)
    strokes = 0
    for message in messages:
        kind = message["type"]
        if args.all:
            print(json.dumps(message, separators=(",", ":")))
        elif kind == "stroke":
            print(describe(message))
        elif kind == "error":
            print("penkitd: %s: %s" % (message["code"], message["message"]), file=sys.stderr)
            if message.get("fatal"):
                return 2
        elif kind == "shutdown":
            print("penkitd stopped: %s" % message["reason"])
        if kind == "stroke":
            strokes += 1
            if args.count is not None and strokes >= args.count:
                break
        sys.stdout.flush()
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
