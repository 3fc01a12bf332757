"""penkitd's messages as typed objects (docs/protocol.md, docs/protocol.schema.json), the
Python counterpart of PenKit's ``PenMessage``: ``parse_message`` turns one decoded JSON line into
the dataclass of its type, and a type this client does not know into ``Unknown`` (a newer server's
message, kept, not an error). Each object keeps the line's own dict as ``raw``, and reads every
field of it by its snake_case name (``shutdown.reason``, ``frame.expected_error``), typed
attributes first: a field the schema gains is readable here without a change, and a new type
reads as ``Unknown`` with all its fields. Standard library only."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

Raw = Dict[str, Any]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


class Fields:
    """Any field of the line by its snake_case name, for the fields a message's class does not
    type (``update.device``, ``ended.pending_updates``): the line's value as sent. A field the line
    does not carry raises AttributeError (``getattr(message, "device", None)`` for an optional one)."""
    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "raw":
            raise AttributeError(name)
        raw = self.raw
        key = _camel(name)
        if key in raw:
            return raw[key]
        raise AttributeError("%s line has no field %r" % (raw.get("type", "?"), key))


@dataclass(frozen=True)
class Tool:
    type: str
    serial: int = 0
    id: int = 0

    @staticmethod
    def of(obj: Optional[Raw]) -> Optional["Tool"]:
        if not isinstance(obj, dict):
            return None
        return Tool(obj["type"], int(obj.get("serial", 0)), int(obj.get("id", 0)))


@dataclass(frozen=True)
class Hello(Fields):
    version: int
    devices: List[Raw]
    settings: Dict[str, str]
    last_seq: int
    oldest_seq: int
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Subscribed(Fields):
    channels: List[str]
    replaying: int
    devices: Optional[List[Raw]]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class DeviceChange(Fields):
    change: str  # "added", "removed" or "changed"
    device: Raw
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Proximity(Fields):
    device: int
    t: int
    entering: bool
    tool: Tool
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Button(Fields):
    device: int
    t: int
    button: int
    pressed: bool
    tool: Tool
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Pad(Fields):
    """A pad's button, ring or strip, as libinput reported it."""
    device: int
    t: int
    event: str  # "button", "ring" or "strip"
    group: int
    mode: int
    button: Optional[int] = None
    pressed: Optional[bool] = None
    number: Optional[int] = None
    position: Optional[float] = None
    from_finger: Optional[bool] = None
    raw: Raw = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Action(Fields):
    """A preferred action: switch tools on it as PencilKit does. ``kind`` is "stylus" or "pad"
    for a button (``button``, ``double``, ``tool``), "ring" or "strip" for a step (``number``,
    ``direction``, ``group``, ``mode``)."""
    action: str
    device: int
    t: int
    trigger: str
    kind: str
    button: Optional[int] = None
    double: Optional[bool] = None
    tool: Optional[Tool] = None
    number: Optional[int] = None
    direction: Optional[str] = None
    group: Optional[int] = None
    mode: Optional[int] = None
    raw: Raw = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class PressureSource(Fields):
    device: int
    state: str  # "attached" or "detached"
    serial: Optional[int]
    latency: Optional[int]
    jitter: Optional[int]
    contact_frames: Optional[int]
    reason: Optional[str]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Frame(Fields):
    """A live frame: ``sample`` (tablet mm), ``stroke`` (None while hovering), ``predicted``."""
    tool: Tool
    sample: Raw
    stroke: Optional[int]
    predicted: List[Raw]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Began(Fields):
    stroke: int
    tool: Tool
    t: int
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Update(Fields):
    """Late values for a sample already sent (``update_index``)."""
    update_index: int
    updated: List[str]
    expired: List[str]
    sample: Raw
    stroke: Optional[int]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Ended(Fields):
    stroke: int
    t: int
    cancelled: bool
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Stroke(Fields):
    """A finalized stroke; ``seq`` orders them (subscribe with ``since`` to resume)."""
    seq: int
    stroke: Raw
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Dropped(Fields):
    frames: int
    updates: int
    buttons: int
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Overflow(Fields):
    """Fatal: the client fell behind on strokes. Reconnect with ``since=last_sent_seq``."""
    last_sent_seq: Optional[int]
    message: str
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Error(Fields):
    code: str
    message: str
    fatal: bool
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Shutdown(Fields):
    reason: str
    # The last stroke seq penkitd sent this client in full (None from a server that does not say).
    last_sent_seq: Optional[int]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class SettingsSaved(Fields):
    """penkitd's answer to a ``settings`` request: the changes are kept in ``file`` (``overrides``
    of them over the config file) and applied now; ``after_restart`` keys from penkitd's next start."""
    file: str
    overrides: int
    after_restart: List[str]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Status(Fields):
    """penkitd's answer to ``PenkitClient.request_status()``: per tablet (``devices``, as sent)
    its proximity, contact, reports and report rate, and the settings in force with the origin
    of each (``default``, ``config file PATH:LINE``, ``reload PATH:LINE`` or ``flag --KEY``)."""
    config_file: Optional[str]
    settings: List[Raw]
    devices: List[Raw]
    raw: Raw = field(repr=False)


@dataclass(frozen=True)
class Unknown(Fields):
    type: str
    raw: Raw = field(repr=False)


Message = Union[Hello, Subscribed, DeviceChange, Proximity, Button, Pad, Action, PressureSource, Frame, Began,
                Update, Ended, Stroke, Dropped, Overflow, Error, Shutdown, Status, SettingsSaved, Unknown]


def _opt_int(obj: Raw, key: str) -> Optional[int]:
    value = obj.get(key)
    return None if value is None else int(value)


def parse_message(obj: Raw) -> Message:
    """The typed message of one decoded line. Raises KeyError or ValueError when a field the
    schema requires is missing or malformed (as PenKit's decoder refuses such a line)."""
    t = obj["type"]
    if t == "hello":
        return Hello(int(obj["version"]), list(obj.get("devices", [])), dict(obj.get("settings", {})),
                     int(obj.get("lastSeq", 0)), int(obj.get("oldestSeq", 0)), obj)
    if t == "subscribed":
        return Subscribed(list(obj.get("channels", [])), int(obj.get("replaying", 0)), obj.get("devices"), obj)
    if t == "device":
        if obj["change"] not in ("added", "removed", "changed"):
            raise ValueError("unknown device change %r" % obj["change"])
        return DeviceChange(obj["change"], obj["device"], obj)
    if t == "proximity":
        return Proximity(int(obj["device"]), int(obj["t"]), obj["state"] == "in", Tool.of(obj["tool"]), obj)
    if t == "button":
        return Button(int(obj["device"]), int(obj["t"]), int(obj["button"]), obj["state"] == "pressed",
                      Tool.of(obj["tool"]), obj)
    if t == "pad":
        event = obj["event"]
        common = dict(device=int(obj["device"]), t=int(obj["t"]), event=event, group=int(obj["group"]),
                      mode=int(obj["mode"]), raw=obj)
        if event == "button":
            return Pad(button=int(obj["button"]), pressed=obj["state"] == "pressed", **common)
        if event in ("ring", "strip"):
            return Pad(number=int(obj["number"]), position=float(obj["position"]),
                       from_finger=obj.get("source") == "finger", **common)
        raise ValueError("unknown pad event %r" % event)
    if t == "action":
        source = obj["source"]
        kind = source["kind"]
        common = dict(action=obj["action"], device=int(obj["device"]), t=int(obj["t"]),
                      trigger=source["trigger"], kind=kind, raw=obj)
        if kind in ("stylus", "pad"):
            return Action(button=int(source["button"]), double=source.get("press") == "double",
                          tool=Tool.of(source.get("tool")), **common)
        if kind in ("ring", "strip"):
            return Action(number=int(source["number"]), direction=source["direction"],
                          group=_opt_int(source, "group"), mode=_opt_int(source, "mode"), **common)
        raise ValueError("unknown action kind %r" % kind)
    if t == "pressure-source":
        if obj["state"] not in ("attached", "detached"):
            raise ValueError("unknown pressure-source state %r" % obj["state"])
        return PressureSource(int(obj["device"]), obj["state"], _opt_int(obj, "serial"), _opt_int(obj, "latency"),
                              _opt_int(obj, "jitter"), _opt_int(obj, "contactFrames"), obj.get("reason"), obj)
    if t == "frame":
        return Frame(Tool.of(obj["tool"]), obj["sample"], _opt_int(obj, "stroke"), list(obj.get("predicted", [])), obj)
    if t == "began":
        return Began(int(obj["stroke"]), Tool.of(obj["tool"]), int(obj["t"]), obj)
    if t == "update":
        return Update(int(obj["updateIndex"]), list(obj["updated"]), list(obj["expired"]), obj["sample"],
                      _opt_int(obj, "stroke"), obj)
    if t == "ended":
        return Ended(int(obj["stroke"]), int(obj["t"]), bool(obj["cancelled"]), obj)
    if t == "stroke":
        return Stroke(int(obj["seq"]), obj["stroke"], obj)
    if t == "dropped":
        return Dropped(int(obj.get("frames", 0)), int(obj.get("updates", 0)), int(obj.get("buttons", 0)), obj)
    if t == "error":
        if obj.get("code") == "overflow":
            return Overflow(_opt_int(obj, "lastSentSeq"), obj.get("message", ""), obj)
        return Error(obj.get("code", ""), obj.get("message", ""), bool(obj.get("fatal", False)), obj)
    if t == "settings-saved":
        return SettingsSaved(str(obj["file"]), int(obj["overrides"]), list(obj["afterRestart"]), obj)
    if t == "shutdown":
        return Shutdown(obj.get("reason", ""), obj.get("lastSentSeq"), obj)
    if t == "status":
        return Status(obj.get("configFile"), list(obj["settings"]), list(obj["devices"]), obj)
    return Unknown(t, obj)
