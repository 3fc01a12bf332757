#!/usr/bin/env python3
"""A penkitd client using only Python's standard library.

Connects to penkitd's Unix socket, subscribes, and prints one line per
finalized stroke (or every message with --all). Protocol: docs/protocol.md.

    python3 examples/penkit_client.py [--socket PATH] [--since N] [--count N] [--all]
"""
import argparse
import json
import os
import socket
import sys

PROTOCOL_VERSION = 1


# EX_UNAVAILABLE (sysexits.h): no penkitd answered, which is not a usage error (2 here, 64 in penkit).
EXIT_UNAVAILABLE = 69
REASONS = {2: "no socket there", 111: "no penkitd listening", 13: "permission denied: not in the socket's group"}


def candidate_sockets(environ=os.environ):
    """Where penkitd is looked for, as penkit does: $PENKIT_SOCKET, the user service's socket,
    then the system service's."""
    paths = []
    if environ.get("PENKIT_SOCKET"):
        paths.append(environ["PENKIT_SOCKET"])
    if environ.get("XDG_RUNTIME_DIR"):
        paths.append(os.path.join(environ["XDG_RUNTIME_DIR"], "penkit", "penkit.sock"))
    paths.append("/run/penkit/penkit.sock")
    return list(dict.fromkeys(paths))


def discover(paths):
    """The first client that connects, or an OSError whose text names every path tried."""
    tried = []
    for path in paths:
        try:
            return PenkitClient(path)
        except OSError as error:
            tried.append("%s (%s)" % (path, REASONS.get(error.errno, error.strerror)))
    raise OSError("no penkitd answered at %s; start it with `systemctl --user start penkit.socket`, "
                  "or `sudo systemctl enable --now penkit.socket` and join the penkit group, "
                  "or point PENKIT_SOCKET at its socket" % ", ".join(tried))


class PenkitClient:
    """One connection; iterate over it to get the server's messages as dicts."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")

    def subscribe(self, channels, since=None):
        request = {"type": "subscribe", "version": PROTOCOL_VERSION, "channels": list(channels)}
        if since is not None:
            request["since"] = since
        self.sock.sendall((json.dumps(request) + "\n").encode())

    def __iter__(self):
        for line in self.reader:  # ends at EOF (server closed) 
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and "type" in message:
                yield message

    def close(self):
        self.sock.close()


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
