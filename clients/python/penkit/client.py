"""One connection to penkitd's Unix socket (docs/protocol.md), standard library only."""
from __future__ import annotations

import json
import os
import socket
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union

from .messages import Message, parse_message
from .stroke_parts import DEFAULT_MAX_POINTS, StrokeAssembler

PROTOCOL_VERSION = 1
# Why a connect failed, by errno, in words a user can act on.
REASONS = {2: "no socket there", 111: "no penkitd listening", 13: "permission denied: not in the socket's group"}


def candidate_sockets(environ: Mapping[str, str] = os.environ) -> List[str]:
    """Where penkitd is looked for, as penkit does: $PENKIT_SOCKET, the user service's socket,
    then the system service's."""
    paths = []
    if environ.get("PENKIT_SOCKET"):
        paths.append(environ["PENKIT_SOCKET"])
    if environ.get("XDG_RUNTIME_DIR"):
        paths.append(os.path.join(environ["XDG_RUNTIME_DIR"], "penkit", "penkit.sock"))
    paths.append("/run/penkit/penkit.sock")
    return list(dict.fromkeys(paths))


def discover(paths: Iterable[str]) -> "PenkitClient":
    """The first client that connects, or an OSError whose text names every path tried."""
    tried = []
    for path in paths:
        try:
            return PenkitClient(path)
        except OSError as error:
            tried.append("%s (%s)" % (path, REASONS.get(error.errno or 0, error.strerror)))
    raise OSError("no penkitd answered at %s; start it with `systemctl --user start penkit.socket`, "
                  "or `sudo systemctl enable --now penkit.socket` and join the penkit group, "
                  "or point PENKIT_SOCKET at its socket" % ", ".join(tried))


class PenkitClient:
    """One connection; iterate over it to get the server's messages as dicts, or over
    ``messages()`` to get them typed (penkit.messages).

    Resuming: when the iteration ends, ``lost`` says whether the connection ended without a
    ``shutdown`` or fatal ``error`` line (penkitd killed, or a slow reader cut off at shutdown,
    maybe part way through a long stroke). After penkitd's restart, ``resumed(channels)`` connects
    again from ``resume_since``: the app gets every stroke it had not taken, none twice."""

    def __init__(self, path: str, max_stroke_points: int = DEFAULT_MAX_POINTS) -> None:
        self.path = path
        self.max_stroke_points = max_stroke_points
        # The last stroke seq the app took, else where the session started (subscribe's since,
        # or hello's lastSeq): what the app took is the one thing known even when the
        # shutdown line saying what was sent never arrived.
        self.resume_since: Optional[int] = None
        self._subscribed_since = False
        self._took_stroke = False
        self.lost = False
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(path)
        except OSError:
            self.sock.close()
            raise
        self.reader = self.sock.makefile("rb")

    def subscribe(self, channels: Iterable[str], since: Optional[int] = None, stroke_parts: bool = True,
                  predict: Optional[Union[str, Dict[str, Any]]] = None) -> None:
        """Long strokes are asked for in parts (bounded lines) unless ``stroke_parts`` is False;
        either way iterating gives each stroke whole (penkit.stroke_parts puts parts together).
        ``predict``: ``"none"``, ``{"horizonMs": 24}`` or ``{"pipeline": True, "displayLatencyMs": 8}``
        (docs/protocol.md); the daemon's horizon without it."""
        if since is not None and not self._took_stroke:
            self.resume_since = since
            self._subscribed_since = True
        self._send(subscribe_request(channels, since, stroke_parts, predict))

    def request_status(self) -> None:
        """Asks for penkitd's live figures and settings; the answer comes as a ``status`` message
        (penkit.messages.Status) among the others."""
        self._send(status_request())

    def _send(self, request: Dict[str, Any]) -> None:
        self.sock.sendall((json.dumps(request) + "\n").encode())

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        """The server's messages as dicts, a stroke sent in parts as one whole stroke. A part
        that does not fit its stroke raises penkit.stroke_parts.StrokePartsError."""
        assembler = StrokeAssembler(self.max_stroke_points)
        ended_by_server = False
        for line in self.reader:  # ends at EOF (the server closed)
            try:
                message = json.loads(line)
            except ValueError:
                continue  # a line cut off by a closed connection does not parse either
            if isinstance(message, dict) and "type" in message:
                whole = assembler.take(message)
                if whole is not None:
                    kind = whole["type"]
                    if kind == "shutdown" or (kind == "error" and whole.get("fatal") is True):
                        ended_by_server = True
                    self._took(whole)  # handed to the app with this yield
                    yield whole
        self.lost = not ended_by_server

    def _took(self, message: Dict[str, Any]) -> None:
        """``message`` goes to the app: a stroke moves the resume point past it."""
        kind = message["type"]
        if kind == "stroke" and isinstance(message.get("seq"), int):
            self.resume_since = message["seq"]
            self._took_stroke = True
        elif kind == "hello" and not self._subscribed_since and not self._took_stroke:
            last = message.get("lastSeq")
            if isinstance(last, int):
                self.resume_since = last

    def resumed(self, channels: Iterable[str], stroke_parts: bool = True) -> "PenkitClient":
        """A new connection to the same socket, subscribed from ``resume_since``."""
        client = PenkitClient(self.path, self.max_stroke_points)
        client.subscribe(channels, since=self.resume_since or 0, stroke_parts=stroke_parts)
        return client

    def messages(self) -> Iterator[Message]:
        """The server's messages as typed objects; a line whose required fields are missing or
        malformed is skipped, as a line that is not JSON is."""
        for obj in self:
            try:
                yield parse_message(obj)
            except (KeyError, ValueError, TypeError):
                continue

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def subscribe_request(channels: Iterable[str], since: Optional[int] = None, stroke_parts: bool = True,
                      predict: Optional[Union[str, Dict[str, Any]]] = None) -> Dict[str, Any]:
    """The ``subscribe`` line ``PenkitClient.subscribe`` sends (docs/protocol.schema.json)."""
    request: Dict[str, Any] = {"type": "subscribe", "version": PROTOCOL_VERSION, "channels": list(channels)}
    if since is not None:
        request["since"] = since
    if predict is not None:
        request["predict"] = predict
    if stroke_parts:
        request["strokeParts"] = True
    return request


def status_request() -> Dict[str, Any]:
    """The ``status`` line ``PenkitClient.request_status`` sends."""
    return {"type": "status", "version": PROTOCOL_VERSION}
