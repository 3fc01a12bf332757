"""SurfacePairing: penkit's frames tied to an app's own pen events, in the app's surface units.

The same algorithm as PenKit's ``SurfacePairing`` (Swift, Sources/PenKit/Surface/) and
``penkit-surface.js``, line for line where it matters, so that all three give the same answers on
Tests/Fixtures/surface-pairing/vectors.json. docs/apps.md explains it; in short:

- pairing: the app's event at time T (ms, its own clock) belongs to the frame whose time t (ms) has
  T − t within [c − slack, c + 1 + slack], c being the clock offset (the smallest recent lag);
- the offset is first found by a search: every remembered frame the first app events could start
  at is tried, the pairs it implies are fitted, and the best fit wins only when every other is
  clearly worse;
- the map is a least-squares affine fit over the newest pairs; it is ready once its standard error
  5 mm out is a third of 0.01 surface units (or of the app's own rounding);
- two app events in a row off the map by one common offset are a moved window: the offset alone is
  refitted.

Frames, updates and strokes are penkit's messages as parsed JSON (docs/protocol.md); deliveries are
the same messages mapped into surface units, plus ``{"type": "map", ...}`` when a map changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .affine import Affine, Pair, fit, residual, rms_residual, translated

IDENTITY = Affine(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
Message = Dict[str, Any]


@dataclass
class SurfacePairingConfiguration:
    """The same defaults as Swift's SurfacePairingConfiguration."""
    pair_window: int = 256
    minimum_pairs: int = 8
    minimum_spread: float = 0.2
    accuracy: float = 0.01
    reach: float = 5.0
    tolerance: float = 0.05
    time_slack: float = 1.0
    search_events: int = 6
    search_limit: int = 48
    search_misses: float = 0.25
    frame_memory: int = 512
    misses_before_search: int = 8
    lag_memory: int = 64
    lead: float = 50.0
    # Delivery only (not in the shared vectors), as penkit-surface.js: how long (ms of penkit's
    # clock) an `ended` waits for the app's own pen to catch up with its stroke, and how many
    # `update`s wait for their stroke's first frame to be delivered here (before the map is
    # ready, or while the app's pen runs behind penkit's feed).
    ended_hold: float = 2000.0
    update_memory: int = 4096


@dataclass
class AppPenEvent:
    """One of the app's own pen events: time in ms on the toolkit's clock, position in surface
    units, proximity "in", "move" or "out", and the app's own name for the device ("" for one pen)."""
    time: float
    x: float
    y: float
    proximity: str
    source: str = ""

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "AppPenEvent":
        """The EVENTS.jsonl form of `penkit surface-fit`: t_ms, x, y, proximity, source."""
        return cls(float(o["t_ms"]), float(o.get("x", 0.0)), float(o.get("y", 0.0)), o["proximity"],
                   str(o.get("source", "")))


@dataclass
class _Remembered:
    frame: Message
    time: float  # ms
    x: float
    y: float


@dataclass
class _SourcePen:
    inside: bool = False
    device: Optional[int] = None
    confirmed: bool = False
    entered_at: float = 0.0
    last_time: float = 0.0

    def enter(self, time: float) -> None:
        self.inside, self.confirmed, self.device, self.entered_at = True, False, None, time


@dataclass
class _DeviceLink:
    frames: List[_Remembered] = field(default_factory=list)
    pairs: List[Pair] = field(default_factory=list)
    suspects: List[Pair] = field(default_factory=list)
    map: Optional[Affine] = None
    ready: bool = False
    rms: float = 0.0
    linear_error: float = math.inf
    history: List[Tuple[int, Affine]] = field(default_factory=list)
    last_delivered: int = 0

    @property
    def delivery_map(self) -> Optional[Affine]:
        return self.map if self.ready else None

    def first_frame(self, time: float) -> int:
        lo, hi = 0, len(self.frames)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.frames[mid].time < time:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def too_narrow(self, spread: float) -> bool:
        """Whether every set of these frames is too narrow for a map (DeviceLink.swift, tooNarrow):
        a fit's spread is at most half the frames' extent in any direction."""
        if not self.frames:
            return True
        xs = [f.x for f in self.frames]
        ys = [f.y for f in self.frames]
        sums = [f.x + f.y for f in self.frames]
        differences = [f.x - f.y for f in self.frames]
        width = min(max(xs) - min(xs), max(ys) - min(ys),
                    (max(sums) - min(sums)) / math.sqrt(2), (max(differences) - min(differences)) / math.sqrt(2))
        return width < 2 * spread * (1 - 1e-9)

    def map_at(self, time: int) -> Affine:
        chosen = self.history[0][1] if self.history else (self.map or IDENTITY)
        for start, m in self.history:
            if start <= time:
                chosen = m
        return chosen

    def record_map(self, m: Affine, start: int, new_segment: bool) -> None:
        if new_segment or not self.history:
            self.history.append((start, m))
            if len(self.history) > 16:
                del self.history[0]
        else:
            self.history[-1] = (self.history[-1][0], m)


def _map_sample(s: Message, m: Affine) -> Message:
    out = dict(s)
    out["x"], out["y"] = m.apply(s["x"], s["y"])
    if "azimuth" in s:
        out["azimuth"] = m.azimuth(s["azimuth"])
    return out


def map_frame(frame: Message, m: Affine) -> Message:
    out = dict(frame)
    out["sample"] = _map_sample(frame["sample"], m)
    out["predicted"] = [_map_sample(p, m) for p in frame.get("predicted", [])]
    if frame.get("expectedError") is not None:
        out["expectedError"] = frame["expectedError"] * m.width_scale
    return out


def _map_stroke(message: Message, link: _DeviceLink) -> Message:
    stroke = dict(message["stroke"])

    def mapped(point: Message, time: int) -> Message:
        m = link.map_at(time)
        p = _map_sample(point, m)
        if "size" in point:
            p["size"] = point["size"] * m.width_scale
        return p

    stroke["points"] = [mapped(p, p["t"]) for p in message["stroke"].get("points", [])]
    path = dict(message["stroke"].get("path", {}))
    creation = path.get("creationTime", 0)
    path["controlPoints"] = [mapped(c, creation + int(max(c.get("timeOffset", 0.0), 0.0) * 1_000_000))
                             for c in path.get("controlPoints", [])]
    stroke["path"] = path
    return dict(message, stroke=stroke)


class SurfacePairing:
    """Feed it penkit's messages (``handle_message``) and the app's own pen events
    (``handle_app_event``) in the order they arrive; each call returns what to hand the app."""

    def __init__(self, configuration: Optional[SurfacePairingConfiguration] = None,
                 surface_width: Optional[float] = None, surface_height: Optional[float] = None) -> None:
        self.configuration = configuration or SurfacePairingConfiguration()
        self.surface_width = surface_width
        self.surface_height = surface_height
        self.clock_offset: Optional[float] = None
        self.app_events = 0
        self._devices: Dict[int, _DeviceLink] = {}
        self._sources: Dict[str, _SourcePen] = {}
        self._pending: List[AppPenEvent] = []
        self._lags: List[float] = []
        self._misses = 0
        # Searches in a row that found no offset, and app events since the last: after a failure
        # the next search waits for `search_events` more app events (SurfacePairing.swift, failedSearches).
        self._failed_searches = 0
        self._events_since_search = 0
        self._begans: Dict[int, Message] = {}
        self._owned: set = set()
        self._held: List[Message] = []
        self._held_ended: List[Message] = []
        self._waiting_updates: List[Message] = []

    # --- what is known ---

    def estimate(self, device: int) -> Optional[Message]:
        link = self._devices.get(device)
        if link is None or link.map is None:
            return None
        ready = link.ready and not link.suspects
        return self._estimate(link, device, "ready" if ready else "lost", ready)

    def device_ids(self) -> List[int]:
        return sorted(self._devices)

    def pairs(self, device: int) -> List[Pair]:
        link = self._devices.get(device)
        return list(link.pairs) if link else []

    # --- input ---

    def handle_app_event(self, event: AppPenEvent) -> List[Message]:
        out: List[Message] = []
        self.app_events += 1
        pen = self._sources.get(event.source) or _SourcePen()
        if event.proximity == "out":
            # The pen was here until this event: pair what can be, deliver the frames before its
            # time, then settle the strokes waiting for it.
            self._resolve(False, out)
            pen = self._sources.get(event.source) or _SourcePen()
            if pen.inside and pen.confirmed and pen.device in self._devices and self.clock_offset is not None:
                self._catch_up(event.source, pen.device, self._devices[pen.device], out,
                               until=event.time - self.clock_offset)
            pen.inside = pen.confirmed = False
            self._sources[event.source] = pen
            self._release_strokes(True, out)
            return out
        if event.proximity == "in" or not pen.inside:
            pen.enter(event.time)
            self._failed_searches = 0   # a new proximity: the next search need not wait
        pen.last_time = event.time
        self._sources[event.source] = pen
        self._pending.append(event)
        self._events_since_search += 1
        self._resolve(False, out)
        return out

    def handle_message(self, message: Message) -> List[Message]:
        """A penkit message (frame, began, update, ended, stroke; others are ignored). A frame's
        `delivered` position (penkit's virtual tablet) is what the app's events carry, so it pairs."""
        out: List[Message] = []
        kind = message.get("type")
        device = int(message.get("device", 0))
        if kind == "frame":
            link = self._devices.setdefault(device, _DeviceLink())
            s = message["sample"]
            d = message.get("delivered")
            x, y = (d["x"], d["y"]) if isinstance(d, dict) else (s["x"], s["y"])
            # The time the app's events carry for this report: when penkit's virtual tablet wrote
            # it (`delivered.t`), else the report's own; kept in order for the binary searches.
            written = d["t"] if isinstance(d, dict) and isinstance(d.get("t"), (int, float)) else s["t"]
            last = link.frames[-1].time if link.frames else -math.inf
            link.frames.append(_Remembered(message, max(written / 1000.0, last), x, y))
            limit = self.configuration.frame_memory
            if len(link.frames) > 2 * limit:
                del link.frames[:len(link.frames) - limit]
            self._resolve(False, out)
            if s["t"] > self._devices[device].last_delivered:
                self._deliver_if_here(message, out)
        elif kind == "began":
            self._begans[message["stroke"]] = message
        elif kind == "update":
            link = self._devices.get(device)
            m = link.delivery_map if link else None
            stroke = message.get("stroke")
            here = (stroke in self._owned) if stroke is not None else self._has_pen(device, message["sample"]["t"] / 1000.0)
            if m is not None and here:
                out.append(dict(message, sample=_map_sample(message["sample"], m)))
            elif stroke is not None:
                # Its stroke may still come here: the map is not ready yet, or the app's own pen
                # has not reached the stroke. Delivered with the stroke's first frame here
                # (_deliver), dropped when the stroke is settled without one (_release_strokes);
                # the oldest go past the bound.
                self._waiting_updates.append(message)
                if len(self._waiting_updates) > self.configuration.update_memory:
                    del self._waiting_updates[0]
        elif kind == "ended":
            # Held until the app's own pen has caught up with the stroke's end (_release_ended):
            # penkit's feed may run ahead of the app's pen events.
            self._begans.pop(message["stroke"], None)
            self._held_ended.append(message)
            self._release_ended(False, out)
        elif kind == "stroke":
            # Held even when none of its frames came here yet: the app's events may run behind.
            self._begans.pop(message["stroke"]["id"], None)
            self._held.append(message)
            self._release_strokes(False, out)
        return out

    def finish(self) -> List[Message]:
        """The end of the input: app events still waiting pair with what came."""
        out: List[Message] = []
        self._resolve(True, out)
        self._release_strokes(True, out)
        return out

    # --- pairing ---

    def _resolve(self, final: bool, out: List[Message]) -> None:
        first = self._pending[0] if self._pending else None
        unassigned = first is not None and self._sources.get(first.source, _SourcePen()).device is None \
            and len(self._devices) > 1
        if self.clock_offset is None or unassigned:
            if not (self._search_is_due(final) and self._search()):
                limit = self.configuration.search_limit
                if len(self._pending) > limit:
                    del self._pending[:len(self._pending) - limit]
                return
        done = 0
        while done < len(self._pending) and self.clock_offset is not None:
            event = self._pending[done]
            latest = event.time - self.clock_offset + self.configuration.time_slack
            if not final and not any(link.frames and link.frames[-1].time > latest for link in self._devices.values()):
                break
            self._pair_one(event, self.clock_offset, out)
            done += 1
        del self._pending[:done]

    def _window(self, link: _DeviceLink, time: float, offset: float) -> range:
        slack = self.configuration.time_slack
        lo = link.first_frame(time - offset - 1 - slack)
        hi = link.first_frame(time - offset + slack + 1e-9)
        return range(lo, max(lo, hi))

    def _pair_one(self, event: AppPenEvent, offset: float, out: List[Message]) -> None:
        best: Optional[Tuple[int, int, float]] = None
        assigned = self._sources[event.source].device if event.source in self._sources else None
        for device in sorted(self._devices):
            if assigned is not None and assigned != device:
                continue
            link = self._devices[device]
            for i in self._window(link, event.time, offset):
                f = link.frames[i]
                if link.map is not None:
                    x, y = link.map.apply(f.x, f.y)
                    score = math.hypot(x - event.x, y - event.y) / max(link.map.width_scale, 1e-12)
                else:
                    score = 1e6 + abs(event.time - f.time - offset - 0.5)
                if best is None or score < best[2]:
                    best = (device, i, score)
        if best is None:
            self._misses += 1
            if self._misses >= self.configuration.misses_before_search:
                self.clock_offset = None
                self._lags.clear()
                self._misses = 0
            return
        self._misses = 0
        device, index, _ = best
        link = self._devices[device]
        f = link.frames[index]
        lag = event.time - f.time
        pair = Pair(f.x, f.y, event.x, event.y, lag, f.frame["sample"]["t"])
        # Only a pair that fits the map says what the offset is: one off it was paired with the
        # wrong frame (an event stamped late), and its smaller lag would pull the window early.
        if link.map is None or residual(link.map, pair) <= max(self.configuration.tolerance * link.map.width_scale, 3 * link.rms):
            self._lags.append(lag)
            if len(self._lags) > self.configuration.lag_memory:
                del self._lags[:len(self._lags) - self.configuration.lag_memory]
            self.clock_offset = min(self._lags)
        self._sources.setdefault(event.source, _SourcePen()).device = device
        self._add(pair, device, event.source, out)
        self._release_strokes(False, out)

    def _search_is_due(self, final: bool) -> bool:
        return final or self._failed_searches == 0 or self._events_since_search >= self.configuration.search_events

    def _search(self) -> bool:
        if not self._pending:
            return False
        config = self.configuration
        anchor = self._pending[0]
        events = [e for e in self._pending if e.source == anchor.source]
        if len(events) < config.search_events:
            return False
        self._events_since_search = 0
        if all(link.too_narrow(config.minimum_spread) for link in self._devices.values()):
            self._failed_searches += 1   # what the trials would decide, without them
            return False
        slack = config.time_slack
        trials = []  # (score, order, device, lags, spread)
        for device in sorted(self._devices):
            link = self._devices[device]
            for anchor_frame in link.frames:
                trial_lag = anchor.time - anchor_frame.time
                if self.clock_offset is not None and not (
                        self.clock_offset - slack <= trial_lag <= self.clock_offset + 1 + slack):
                    continue
                pairs: List[Pair] = []
                lags: List[float] = []
                missed = 0
                for event in events:
                    chosen = None
                    i = link.first_frame(event.time - trial_lag - 1 - slack)
                    upper = event.time - trial_lag + 1 + slack
                    while i < len(link.frames) and link.frames[i].time <= upper:
                        if chosen is None or abs(event.time - link.frames[i].time - trial_lag) \
                                < abs(event.time - link.frames[chosen].time - trial_lag):
                            chosen = i
                        i += 1
                    if chosen is None:
                        # Stamped late (an X server's time is when it read the report) or its
                        # report lost: left out, within `search_misses` of the events.
                        missed += 1
                        if missed > len(events) * config.search_misses:
                            break
                        continue
                    f = link.frames[chosen]
                    pairs.append(Pair(f.x, f.y, event.x, event.y, event.time - f.time, f.frame["sample"]["t"]))
                    lags.append(event.time - f.time)
                if missed > len(events) * config.search_misses or len(pairs) < config.search_events:
                    continue
                result = fit(pairs)
                if result is None:
                    continue
                trials.append((result.rms / max(result.transform.width_scale, 1e-12), len(trials), device, lags,
                               result.spread))
        trials.sort(key=lambda t: (t[0], t[1]))
        if not trials or trials[0][0] > config.tolerance or trials[0][4] < config.minimum_spread \
                or (len(trials) > 1 and trials[1][0] <= config.tolerance):
            self._failed_searches += 1
            return False
        self._failed_searches = 0
        best = trials[0]
        self.clock_offset = min(best[3])
        self._lags = list(best[3])
        self._sources.setdefault(anchor.source, _SourcePen()).device = best[2]
        return True

    # --- the map ---

    def _add(self, pair: Pair, device: int, source: str, out: List[Message]) -> None:
        config = self.configuration
        link = self._devices[device]
        if link.map is None:
            link.pairs.append(pair)
            if len(link.pairs) > config.pair_window:
                del link.pairs[:len(link.pairs) - config.pair_window]
            self._refit(link, device, out)
            if link.ready:
                self._catch_up(source, device, link, out)
            return
        m = link.map
        tolerance = config.tolerance * m.width_scale
        if residual(m, pair) <= max(tolerance, 3 * link.rms):
            link.suspects.clear()
            link.pairs.append(pair)
            if len(link.pairs) > config.pair_window:
                del link.pairs[:len(link.pairs) - config.pair_window]
            self._refit(link, device, out)
            if link.ready:
                self._catch_up(source, device, link, out)
            return
        link.suspects.append(pair)
        if source in self._sources:
            self._sources[source].confirmed = False
        if len(link.suspects) < 2:
            return
        moved = translated(m, link.suspects)
        if all(residual(moved, s) <= tolerance for s in link.suspects):
            moved_at = link.pairs[-1].frame_time + 1 if link.pairs else link.suspects[0].frame_time
            link.pairs = list(link.suspects)
            link.suspects.clear()
            link.map = moved
            link.rms = rms_residual(moved, link.pairs)
            if link.ready:
                link.record_map(moved, moved_at, True)
                out.append(self._estimate(link, device, "moved", link.ready))
                self._catch_up(source, device, link, out)
        elif len(link.suspects) >= 3:
            was_ready = link.ready
            link.pairs = list(link.suspects)
            link.suspects.clear()
            link.map, link.ready, link.linear_error = None, False, math.inf
            link.history.clear()
            lost = fit(link.pairs)
            if was_ready and lost is not None:
                out.append({"type": "map", "device": device, "transform": list(lost.transform), "ready": False,
                            "change": "lost", "pairs": len(link.pairs), "rms": lost.rms,
                            "clockOffset": self.clock_offset or 0.0, "appEvents": self.app_events})
            self._refit(link, device, out)

    def _refit(self, link: _DeviceLink, device: int, out: List[Message]) -> None:
        config = self.configuration
        window = link.pairs[-config.pair_window:]
        result = fit(window) if len(window) >= config.minimum_pairs else None
        if result is not None and not link.ready and result.rms > config.tolerance * result.transform.width_scale:
            # Before a map, an event stamped late may have been paired with another frame: where
            # most pairs lie within the tolerance of their fit, the others are dropped as such.
            limit = config.tolerance * result.transform.width_scale
            kept = [p for p in window if residual(result.transform, p) <= limit]
            if len(kept) >= config.minimum_pairs and 4 * len(kept) >= 3 * len(window):
                link.pairs = kept
                window = kept
                result = fit(window)
        if result is not None and result.spread >= config.minimum_spread \
                and result.rms <= config.tolerance * result.transform.width_scale:
            error = result.standard_error(config.reach)
            if error <= max(config.accuracy, result.rms) / 3 and (not link.ready or error <= link.linear_error):
                link.map, link.rms, link.linear_error = result.transform, result.rms, error
                if not link.ready:
                    link.ready = True
                    link.record_map(result.transform, window[0].frame_time, True)
                    out.append(self._estimate(link, device, "ready", True))
                else:
                    link.record_map(result.transform, window[0].frame_time, False)
                return
        if link.ready and link.map is not None:
            moved = translated(link.map, window)
            link.map, link.rms = moved, rms_residual(moved, window)
            link.record_map(moved, window[0].frame_time, False)

    def _estimate(self, link: _DeviceLink, device: int, change: str, ready: bool) -> Message:
        return {"type": "map", "device": device, "transform": list(link.map or IDENTITY), "ready": ready,
                "change": change, "pairs": len(link.pairs), "rms": link.rms,
                "clockOffset": self.clock_offset or 0.0, "appEvents": self.app_events}

    # --- delivery ---

    def _has_pen(self, device: int, time: float) -> bool:
        offset = self.clock_offset or 0.0
        return any(p.inside and p.confirmed and p.device == device
                   and time <= p.last_time - offset + self.configuration.lead for p in self._sources.values())

    def _catch_up(self, source: str, device: int, link: _DeviceLink, out: List[Message],
                  until: Optional[float] = None) -> None:
        """Frames of `device` from the source's proximity-in (not before the current map) up to
        `lead` ms past the app's newest event, not delivered yet, in order."""
        pen = self._sources.get(source)
        if pen is None or not pen.inside:
            return
        pen.confirmed, pen.device = True, device
        m = link.delivery_map
        if m is None or self.clock_offset is None:
            return
        entered = pen.entered_at - self.clock_offset - 1 - self.configuration.time_slack
        since = max(entered, (link.history[-1][0] if link.history else 0) / 1000.0, link.last_delivered / 1000.0)
        if until is None:
            until = pen.last_time - self.clock_offset + self.configuration.lead
        i = link.first_frame(since)
        while i < len(link.frames) and link.frames[i].time <= until:
            frame = link.frames[i].frame
            if frame["sample"]["t"] > link.last_delivered:
                self._deliver(frame, m, link, out)
            i += 1

    def _deliver_if_here(self, frame: Message, out: List[Message]) -> None:
        device = int(frame.get("device", 0))
        link = self._devices.get(device)
        m = link.delivery_map if link else None
        if m is None or not self._has_pen(device, frame["sample"]["t"] / 1000.0):
            return
        self._deliver(frame, m, link, out)

    def _deliver(self, frame: Message, m: Affine, link: _DeviceLink, out: List[Message]) -> None:
        mapped = map_frame(frame, m)
        x, y = mapped["sample"]["x"], mapped["sample"]["y"]
        if self.surface_width is not None and self.surface_height is not None and \
                not (0 <= x <= self.surface_width and 0 <= y <= self.surface_height):
            return
        link.last_delivered = frame["sample"]["t"]
        stroke = frame.get("stroke")
        waiting: List[Message] = []
        if stroke is not None and stroke not in self._owned:
            self._owned.add(stroke)
            if stroke in self._begans:
                out.append(self._begans[stroke])
            waiting = [u for u in self._waiting_updates if u.get("stroke") == stroke]
            if waiting:
                self._waiting_updates = [u for u in self._waiting_updates if u.get("stroke") != stroke]
        out.append(mapped)
        # The stroke's updates that came before it was here, after its first frame (an app
        # matches an update to its frame by updateIndex, and may get the update before the frame
        # it refines).
        for u in waiting:
            out.append(dict(u, sample=_map_sample(u["sample"], m)))

    def _release_ended(self, force: bool, out: List[Message], stroke: Optional[int] = None) -> None:
        """An `ended` goes out once the app's own pen has been paired up to its time (or a frame
        at or past it was delivered), so that it follows every frame of its stroke that comes
        here; with `force` (the pen left, the input ended), or once penkit's frames are
        `ended_hold` ms past it (the app's pen is not catching up), it goes out as it is. Only for
        strokes delivered here; in penkit's order; always before its stroke's `stroke`."""
        # Up to and including `stroke`'s own, whatever their state, when its `stroke` goes out.
        through = -1
        if stroke is not None:
            through = next((i for i, e in enumerate(self._held_ended) if e["stroke"] == stroke), -1)
        while self._held_ended:
            first = self._held_ended[0]
            link = self._devices.get(int(first.get("device", 0)))
            end = first.get("t", 0)
            newest = link.frames[-1].frame["sample"]["t"] if link and link.frames else 0
            # (Only with the map ready: frames paired before it are delivered when it gets ready.)
            caught_up = link is not None and link.ready and \
                ((link.pairs[-1].frame_time if link.pairs else 0) >= end or link.last_delivered >= end)
            if not (force or link is None or caught_up or through >= 0
                    or newest - end > self.configuration.ended_hold * 1000):
                return
            del self._held_ended[0]
            through -= 1
            if first["stroke"] in self._owned:
                out.append(first)

    def _release_strokes(self, force: bool, out: List[Message]) -> None:
        self._release_ended(force, out)
        while self._held:
            first = self._held[0]
            link = self._devices.get(int(first.get("device", 0)))
            if link is None:
                del self._held[0]
                continue
            points = first["stroke"].get("points", [])
            end = points[-1]["t"] if points else 0
            # (Not before the map is ready: the frames paired so far are delivered when it gets
            # ready, and a stroke settled before that would be dropped though its frames then come.)
            if not force and (not link.ready or (link.pairs[-1].frame_time if link.pairs else 0) < end):
                return
            del self._held[0]
            stroke_id = first["stroke"]["id"]
            if any(e["stroke"] == stroke_id for e in self._held_ended):
                self._release_ended(False, out, stroke_id)
            self._waiting_updates = [u for u in self._waiting_updates if u.get("stroke") != stroke_id]
            if stroke_id in self._owned:  # one of its frames was delivered here
                self._owned.discard(stroke_id)
                out.append(_map_stroke(first, link))
