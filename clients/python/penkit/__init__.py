"""penkit's Python client (standard library only).

- ``PenkitClient``: one connection to penkitd's Unix socket (docs/protocol.md); its
  ``messages()`` are typed (``penkit.messages``: ``Frame``, ``Stroke``, ``Action``, ``Pad``, …).
- ``SurfacePairing``: pairs an app's own pen events with penkit's frames, learns the map from
  tablet mm to the app's surface and hands over penkit's messages in surface units while the pen
  is over that surface (docs/apps.md). The same algorithm as PenKit's ``SurfacePairing`` (Swift)
  and ``penkit-surface.js`` (the browser), checked against the same vectors.
"""
from .affine import Affine
from .client import PenkitClient, candidate_sockets, discover
from . import messages
from .messages import Message, parse_message
from .stroke_parts import StrokeAssembler, StrokePartsError
from .surface_pairing import AppPenEvent, SurfacePairing, SurfacePairingConfiguration

__all__ = ["Affine", "AppPenEvent", "Message", "PenkitClient", "messages", "parse_message", "SurfacePairing", "SurfacePairingConfiguration",
           "StrokeAssembler", "StrokePartsError", "candidate_sockets", "discover"]
