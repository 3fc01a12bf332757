"""Long strokes in parts (docs/protocol.md, "Long strokes"): a client that subscribes with
``strokeParts`` gets a stroke longer than the server's part size as ``strokePart`` lines, then a
closing ``stroke`` line with ``"parts": N`` and empty arrays. ``StrokeAssembler`` puts them back
into the one ``stroke`` message a client without parts gets, field for field. Standard library only."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

Raw = Dict[str, Any]

# The bound on one partial stroke, points and control points together: penkitd's own bound on a
# stroke's samples (2^20), with its control points beside them.
DEFAULT_MAX_POINTS = 2 << 20


class StrokePartsError(ValueError):
    """A part that does not fit the stroke being put together (out of order, from another stroke,
    malformed, or past the bound). Strokes completed before it were already delivered."""


class StrokeAssembler:
    """Feed it every message; it returns None for a part (held), the whole stroke for the line that
    closes one, and any other message as it was."""

    def __init__(self, max_points: int = DEFAULT_MAX_POINTS) -> None:
        if max_points <= 0:
            raise ValueError("max_points must be positive")
        self.max_points = max_points
        self._pending: Optional[Raw] = None

    @property
    def assembling(self) -> bool:
        return self._pending is not None

    def take(self, message: Raw) -> Optional[Raw]:
        kind = message.get("type")
        if kind == "strokePart":
            self._take_part(message)
            return None
        if kind == "stroke" and "parts" in message:
            return self._close(message)
        return message

    def _take_part(self, part: Raw) -> None:
        try:
            seq, stroke, index = int(part["seq"]), int(part["stroke"]), int(part["part"])
        except (KeyError, TypeError, ValueError) as error:
            raise StrokePartsError("a malformed strokePart: %r" % error) from None
        points, control = part.get("points"), part.get("controlPoints")
        if (points is None) == (control is None) or not isinstance(points if points is not None else control, list):
            raise StrokePartsError("strokePart %d of stroke seq %d must carry either points or controlPoints" % (index, seq))
        if self._pending is None:
            if index != 0:
                raise StrokePartsError("strokePart %d of stroke seq %d came without its parts before it" % (index, seq))
            self._pending = {"seq": seq, "stroke": stroke, "next": 0, "points": [], "controlPoints": []}
        pending = self._pending
        if (seq, stroke, index) != (pending["seq"], pending["stroke"], pending["next"]):
            raise StrokePartsError("strokePart %d of stroke seq %d (id %d) came while part %d of seq %d (id %d) was due"
                                   % (index, seq, stroke, pending["next"], pending["seq"], pending["stroke"]))
        if points is not None and pending["controlPoints"]:
            raise StrokePartsError("strokePart %d of stroke seq %d carries points after control points" % (index, seq))
        added = len(points or []) + len(control or [])
        if len(pending["points"]) + len(pending["controlPoints"]) + added > self.max_points:
            self._pending = None
            raise StrokePartsError("stroke seq %d grows past %d points in parts; not assembled" % (seq, self.max_points))
        pending["points"].extend(points or [])
        pending["controlPoints"].extend(control or [])
        pending["next"] += 1

    def _close(self, message: Raw) -> Raw:
        pending, self._pending = self._pending, None
        try:
            seq, parts = int(message["seq"]), int(message["parts"])
            stroke = message["stroke"]
            stroke_id = int(stroke["id"])
            path = stroke["path"]
        except (KeyError, TypeError, ValueError) as error:
            raise StrokePartsError("a malformed stroke line closing parts: %r" % error) from None
        if pending is None:
            raise StrokePartsError("stroke seq %d closes %d parts, none of which came" % (seq, parts))
        if (seq, stroke_id, parts) != (pending["seq"], pending["stroke"], pending["next"]):
            raise StrokePartsError("stroke seq %d (id %d) closes %d parts, but %d parts of seq %d (id %d) came"
                                   % (seq, stroke_id, parts, pending["next"], pending["seq"], pending["stroke"]))
        if stroke.get("points") or path.get("controlPoints"):
            raise StrokePartsError("stroke seq %d closes parts but carries points of its own" % seq)
        whole = {key: value for key, value in message.items() if key != "parts"}
        whole["stroke"] = dict(stroke, points=pending["points"], path=dict(path, controlPoints=pending["controlPoints"]))
        return whole


def join_all(messages: List[Raw], max_points: int = DEFAULT_MAX_POINTS) -> List[Raw]:
    """Every message of a list with its strokes put together (tests, small tools)."""
    assembler = StrokeAssembler(max_points)
    out = []
    for message in messages:
        taken = assembler.take(message)
        if taken is not None:
            out.append(taken)
    return out
