// penkit-surface.js: SurfacePairing for the browser. Pairs a page's own pen PointerEvents with
// penkit's frames (from `penkit view`'s WebSocket), learns the map from tablet mm to the page's
// CSS px, and hands over penkit's frames, predictions, updates and finalized strokes in page
// coordinates while the pen is over this page's surface. The same algorithm as PenKit's
// SurfacePairing (Swift) and the Python client's penkit.surface_pairing, checked against the
// same vectors (Tests/Fixtures/surface-pairing/vectors.json); docs/apps.md explains it. Beyond
// them, all three hold `ended` and early `update`s for the page's own pen, and settle no stroke
// before its map is ready (scripts/surface-delivery-check.mjs here, .py for Python,
// SurfaceDeliveryTests for Swift).
//
//   import { SurfacePairing } from "./penkit-surface.js?token=…";
//   const pairing = new SurfacePairing({ surfaceWidth: canvas.clientWidth, surfaceHeight: canvas.clientHeight });
//   for (const d of pairing.handleMessage(frameFromPenkit)) draw(d);
//   canvas.onpointermove = (e) => { if (e.pointerType === "pen") for (const d of pairing.handleAppEvent(
//       { time: e.timeStamp, x: e.offsetX, y: e.offsetY, proximity: "move", source: String(e.pointerId) })) draw(d); };

export const defaults = Object.freeze({
  pairWindow: 256, minimumPairs: 8, minimumSpread: 0.2, accuracy: 0.01, reach: 5.0, tolerance: 0.05,
  timeSlack: 1.0, searchEvents: 6, searchLimit: 48, searchMisses: 0.25, frameMemory: 512, missesBeforeSearch: 8, lagMemory: 64, lead: 50.0,
  // This module's delivery only (not in the shared vectors): how long (ms of penkit's clock) an
  // `ended` waits for the page's own pen to catch up with its stroke, and how many `update`s wait
  // for their stroke's first frame to be delivered here (before the map is ready, or while the
  // page's pen runs behind penkit's feed).
  endedHold: 2000, updateMemory: 4096,
});

const IDENTITY = [1, 0, 0, 1, 0, 0];

// --- the affine map: [a, b, c, d, tx, ty], (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty) ---
export function apply(m, x, y) { return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]; }
function widthScale(m) { return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2])); }
function azimuth(m, angle) {
  const cx = Math.cos(angle), sy = Math.sin(angle);
  const t = Math.atan2(m[1] * cx + m[3] * sy, m[0] * cx + m[2] * sy);
  return t < 0 ? t + 2 * Math.PI : t;
}
function residual(m, p) {
  const [x, y] = apply(m, p.tx, p.ty);
  return Math.hypot(x - p.sx, y - p.sy);
}
function rmsResidual(m, pairs) {
  if (!pairs.length) return 0;
  let sum = 0;
  for (const p of pairs) { const r = residual(m, p); sum += r * r; }
  return Math.sqrt(sum / pairs.length);
}
function fit(pairs) {
  const n = pairs.length;
  if (n < 3) return null;
  let mpx = 0, mpy = 0, mqx = 0, mqy = 0;
  for (const p of pairs) { mpx += p.tx; mpy += p.ty; mqx += p.sx; mqy += p.sy; }
  mpx /= n; mpy /= n; mqx /= n; mqy /= n;
  let sxx = 0, sxy = 0, syy = 0, uxx = 0, uxy = 0, uyx = 0, uyy = 0;
  for (const p of pairs) {
    const px = p.tx - mpx, py = p.ty - mpy, qx = p.sx - mqx, qy = p.sy - mqy;
    sxx += px * px; sxy += px * py; syy += py * py;
    uxx += qx * px; uxy += qx * py; uyx += qy * px; uyy += qy * py;
  }
  const det = sxx * syy - sxy * sxy;
  if (!(det > 1e-12 * (sxx + syy) * (sxx + syy)) || !Number.isFinite(det)) return null;
  const a = (uxx * syy - uxy * sxy) / det, c = (uxy * sxx - uxx * sxy) / det;
  const b = (uyx * syy - uyy * sxy) / det, d = (uyy * sxx - uyx * sxy) / det;
  const m = [a, b, c, d, mqx - a * mpx - c * mpy, mqy - b * mpx - d * mpy];
  const half = (sxx + syy) / (2 * n), diff = (sxx - syy) / (2 * n), off = sxy / n;
  const smaller = half - Math.sqrt(diff * diff + off * off);
  return { transform: m, rms: rmsResidual(m, pairs), spread: Math.sqrt(Math.max(smaller, 0)), count: n };
}
function standardError(f, reach) {
  if (f.count <= 3 || f.spread <= 0) return Infinity;
  const n = f.count, noise = f.rms * Math.sqrt(n / (n - 3));
  return noise * Math.sqrt((1 + reach * reach / (f.spread * f.spread)) / n);
}
function translated(m, pairs) {
  const n = Math.max(pairs.length, 1);
  let sx = 0, sy = 0;
  for (const p of pairs) { sx += p.sx - (m[0] * p.tx + m[2] * p.ty); sy += p.sy - (m[1] * p.tx + m[3] * p.ty); }
  return [m[0], m[1], m[2], m[3], sx / n, sy / n];
}

function mapSample(s, m) {
  const [x, y] = apply(m, s.x, s.y);
  const out = { ...s, x, y };
  if (s.azimuth !== undefined) out.azimuth = azimuth(m, s.azimuth);
  return out;
}
export function mapFrame(f, m) {
  const out = { ...f, sample: mapSample(f.sample, m), predicted: (f.predicted || []).map((p) => mapSample(p, m)) };
  if (f.expectedError !== undefined && f.expectedError !== null) out.expectedError = f.expectedError * widthScale(m);
  return out;
}

class DeviceLink {
  constructor() {
    this.frames = []; this.pairs = []; this.suspects = []; this.map = null; this.ready = false; this.rms = 0;
    this.linearError = Infinity; this.history = []; this.lastDelivered = 0;
  }
  get deliveryMap() { return this.ready ? this.map : null; }
  firstFrame(time) {
    let lo = 0, hi = this.frames.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.frames[mid].time < time) lo = mid + 1; else hi = mid; }
    return lo;
  }
  /** Whether every set of these frames is too narrow for a map (DeviceLink.swift, tooNarrow): a
   *  fit's spread is at most half the frames' extent in any direction. */
  tooNarrow(spread) {
    if (!this.frames.length) return true;
    const low = [Infinity, Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity, -Infinity];
    for (const f of this.frames) {
      const along = [f.x, f.y, f.x + f.y, f.x - f.y];
      for (let k = 0; k < 4; k++) { low[k] = Math.min(low[k], along[k]); high[k] = Math.max(high[k], along[k]); }
    }
    const width = Math.min(high[0] - low[0], high[1] - low[1], (high[2] - low[2]) / Math.SQRT2, (high[3] - low[3]) / Math.SQRT2);
    return width < 2 * spread * (1 - 1e-9);
  }
  mapAt(time) {
    let chosen = this.history.length ? this.history[0][1] : (this.map || IDENTITY);
    for (const [from, m] of this.history) if (from <= time) chosen = m;
    return chosen;
  }
  recordMap(m, from, newSegment) {
    if (newSegment || !this.history.length) {
      this.history.push([from, m]);
      if (this.history.length > 16) this.history.shift();
    } else this.history[this.history.length - 1] = [this.history[this.history.length - 1][0], m];
  }
}

function mapStroke(message, link) {
  const mapped = (point, time) => {
    const m = link.mapAt(time);
    const p = mapSample(point, m);
    if (point.size !== undefined) p.size = point.size * widthScale(m);
    return p;
  };
  const stroke = { ...message.stroke };
  stroke.points = (message.stroke.points || []).map((p) => mapped(p, p.t));
  const path = { ...(message.stroke.path || {}) };
  const creation = path.creationTime || 0;
  path.controlPoints = (path.controlPoints || []).map((c) => mapped(c, creation + Math.trunc(Math.max(c.timeOffset || 0, 0) * 1e6)));
  stroke.path = path;
  return { ...message, stroke };
}

export class SurfacePairing {
  constructor({ configuration = {}, surfaceWidth = null, surfaceHeight = null } = {}) {
    this.configuration = { ...defaults, ...configuration };
    this.surfaceWidth = surfaceWidth; this.surfaceHeight = surfaceHeight;
    this.clockOffset = null; this.appEvents = 0;
    this.devices = new Map(); this.sources = new Map(); this.pending = []; this.lags = []; this.misses = 0;
    // Searches in a row that found no offset, and app events since the last: after a failure the
    // next search waits for `searchEvents` more app events (SurfacePairing.swift, failedSearches).
    this.failedSearches = 0; this.eventsSinceSearch = 0;
    this.begans = new Map(); this.owned = new Set(); this.held = [];
    this.heldEnded = [];        // `ended` messages waiting for the page's pen (see _releaseEnded)
    this.waitingUpdates = [];   // `update`s of strokes none of whose frames was delivered here yet
  }

  estimate(device) {
    const link = this.devices.get(device);
    if (!link || !link.map) return null;
    const ready = link.ready && !link.suspects.length;
    return this._estimate(link, device, ready ? "ready" : "lost", ready);
  }
  deviceIds() { return [...this.devices.keys()].sort((a, b) => a - b); }

  /** One of the page's own pen events: { time (ms), x, y (surface units), proximity: "in"|"move"|"out", source }. */
  handleAppEvent(event) {
    const out = [];
    const e = { time: event.time, x: event.x || 0, y: event.y || 0, proximity: event.proximity, source: String(event.source ?? "") };
    this.appEvents += 1;
    if (e.proximity === "out") {
      // The pen was here until this event: pair what can be, deliver the frames before its time,
      // then settle the strokes waiting for it.
      this._resolve(false, out);
      const pen = this.sources.get(e.source) || { inside: false, device: null, confirmed: false, enteredAt: 0, lastTime: 0 };
      if (pen.inside && pen.confirmed && this.devices.has(pen.device) && this.clockOffset !== null) {
        this._catchUp(e.source, pen.device, this.devices.get(pen.device), out, e.time - this.clockOffset);
      }
      pen.inside = false; pen.confirmed = false;
      this.sources.set(e.source, pen);
      this._releaseStrokes(true, out);
      return out;
    }
    const pen = this.sources.get(e.source) || { inside: false, device: null, confirmed: false, enteredAt: 0, lastTime: 0 };
    if (e.proximity === "in" || !pen.inside) {
      Object.assign(pen, { inside: true, confirmed: false, device: null, enteredAt: e.time });
      this.failedSearches = 0;   // a new proximity: the next search need not wait
    }
    pen.lastTime = e.time;
    this.sources.set(e.source, pen);
    this.pending.push(e);
    this.eventsSinceSearch += 1;
    this._resolve(false, out);
    return out;
  }

  /** One of penkit's messages as parsed JSON (frame, began, update, ended, stroke; others ignored). */
  handleMessage(message) {
    const out = [];
    // Read for the messages that carry it only (scripts/protocol-readers-check.mjs: no field is
    // read off a message whose type does not declare it).
    const device = message.type === "frame" || message.type === "update" ? message.device || 0 : 0;
    switch (message.type) {
      case "frame": {
        if (!this.devices.has(device)) this.devices.set(device, new DeviceLink());
        const link = this.devices.get(device);
        const s = message.sample, d = message.delivered;
        const [x, y] = d && typeof d === "object" ? [d.x, d.y] : [s.x, s.y];
        // The time the page's events carry for this report: when penkit's virtual tablet wrote
        // it (`delivered.t`), else the report's own; kept in order for the binary searches.
        const written = d && typeof d === "object" && typeof d.t === "number" ? d.t : s.t;
        const last = link.frames.length ? link.frames[link.frames.length - 1].time : -Infinity;
        link.frames.push({ frame: message, time: Math.max(written / 1000, last), x, y });
        const limit = this.configuration.frameMemory;
        if (link.frames.length > 2 * limit) link.frames.splice(0, link.frames.length - limit);
        this._resolve(false, out);
        if (s.t > this.devices.get(device).lastDelivered) this._deliverIfHere(message, out);
        break;
      }
      case "began": this.begans.set(message.stroke, message); break;
      case "update": {
        const link = this.devices.get(device), m = link ? link.deliveryMap : null;
        const hasStroke = message.stroke !== undefined && message.stroke !== null;
        if (m && (hasStroke ? this.owned.has(message.stroke) : this._hasPen(device, message.sample.t / 1000))) {
          out.push({ ...message, sample: mapSample(message.sample, m) });
        } else if (hasStroke) {
          // Its stroke may still come here: the map is not ready yet, or the page's own pen has not
          // reached the stroke. Delivered with the stroke's first frame here (_deliver), dropped
          // when the stroke is settled without one (_releaseStrokes); the oldest go past the bound.
          this.waitingUpdates.push(message);
          if (this.waitingUpdates.length > this.configuration.updateMemory) this.waitingUpdates.shift();
        }
        break;
      }
      case "ended":
        // Held until the page's own pen has caught up with the stroke's end (see _releaseEnded):
        // penkit's feed may run ahead of the page's pen events.
        this.begans.delete(message.stroke);
        this.heldEnded.push(message);
        this._releaseEnded(false, out);
        break;
      case "stroke": {
        // Held even when none of its frames came here yet: the page's own events may run behind.
        this.begans.delete(message.stroke.id);
        this.held.push(message);
        this._releaseStrokes(false, out);
        break;
      }
    }
    return out;
  }

  finish() { const out = []; this._resolve(true, out); this._releaseStrokes(true, out); return out; }

  _resolve(final, out) {
    const first = this.pending[0];
    const unassigned = first !== undefined && (this.sources.get(first.source)?.device ?? null) === null && this.devices.size > 1;
    if (this.clockOffset === null || unassigned) {
      if (!(this._searchIsDue(final) && this._search())) {
        const limit = this.configuration.searchLimit;
        if (this.pending.length > limit) this.pending.splice(0, this.pending.length - limit);
        return;
      }
    }
    let done = 0;
    while (done < this.pending.length && this.clockOffset !== null) {
      const event = this.pending[done];
      const latest = event.time - this.clockOffset + this.configuration.timeSlack;
      if (!final && ![...this.devices.values()].some((l) => l.frames.length && l.frames[l.frames.length - 1].time > latest)) break;
      this._pairOne(event, this.clockOffset, out);
      done += 1;
    }
    this.pending.splice(0, done);
  }

  _pairOne(event, offset, out) {
    const slack = this.configuration.timeSlack;
    let best = null;
    const assigned = this.sources.has(event.source) ? this.sources.get(event.source).device : null;
    for (const device of this.deviceIds()) {
      if (assigned !== null && assigned !== device) continue;
      const link = this.devices.get(device);
      const lo = link.firstFrame(event.time - offset - 1 - slack);
      const hi = Math.max(lo, link.firstFrame(event.time - offset + slack + 1e-9));
      for (let i = lo; i < hi; i++) {
        const f = link.frames[i];
        let score;
        if (link.map) {
          const [x, y] = apply(link.map, f.x, f.y);
          score = Math.hypot(x - event.x, y - event.y) / Math.max(widthScale(link.map), 1e-12);
        } else score = 1e6 + Math.abs(event.time - f.time - offset - 0.5);
        if (best === null || score < best.score) best = { device, index: i, score };
      }
    }
    if (best === null) {
      this.misses += 1;
      if (this.misses >= this.configuration.missesBeforeSearch) { this.clockOffset = null; this.lags = []; this.misses = 0; }
      return;
    }
    this.misses = 0;
    const link = this.devices.get(best.device), f = link.frames[best.index];
    const lag = event.time - f.time;
    const pair = { tx: f.x, ty: f.y, sx: event.x, sy: event.y, lag, frameTime: f.frame.sample.t };
    // Only a pair that fits the map says what the offset is: one off it was paired with the wrong
    // frame (an event stamped late), and its smaller lag would pull the window early.
    if (!link.map || residual(link.map, pair) <= Math.max(this.configuration.tolerance * widthScale(link.map), 3 * link.rms)) {
      this.lags.push(lag);
      if (this.lags.length > this.configuration.lagMemory) this.lags.splice(0, this.lags.length - this.configuration.lagMemory);
      this.clockOffset = Math.min(...this.lags);
    }
    if (!this.sources.has(event.source)) this.sources.set(event.source, { inside: false, device: null, confirmed: false, enteredAt: 0, lastTime: 0 });
    this.sources.get(event.source).device = best.device;
    this._add(pair, best.device, event.source, out);
    this._releaseStrokes(false, out);
  }

  _searchIsDue(final) {
    return final || this.failedSearches === 0 || this.eventsSinceSearch >= this.configuration.searchEvents;
  }

  _search() {
    const config = this.configuration, slack = config.timeSlack;
    if (!this.pending.length) return false;
    const anchor = this.pending[0];
    const events = this.pending.filter((e) => e.source === anchor.source);
    if (events.length < config.searchEvents) return false;
    this.eventsSinceSearch = 0;
    if ([...this.devices.values()].every((link) => link.tooNarrow(config.minimumSpread))) {
      this.failedSearches += 1;   // what the trials would decide, without them
      return false;
    }
    const trials = [];
    for (const device of this.deviceIds()) {
      const link = this.devices.get(device);
      for (const anchorFrame of link.frames) {
        const trialLag = anchor.time - anchorFrame.time;
        if (this.clockOffset !== null && !(trialLag >= this.clockOffset - slack && trialLag <= this.clockOffset + 1 + slack)) continue;
        const pairs = [], lags = [];
        let missed = 0;
        for (const event of events) {
          let chosen = -1;
          let i = link.firstFrame(event.time - trialLag - 1 - slack);
          const upper = event.time - trialLag + 1 + slack;
          for (; i < link.frames.length && link.frames[i].time <= upper; i++) {
            if (chosen < 0 || Math.abs(event.time - link.frames[i].time - trialLag) < Math.abs(event.time - link.frames[chosen].time - trialLag)) chosen = i;
          }
          if (chosen < 0) {
            // Stamped late (an X server's time is when it read the report) or its report lost:
            // left out, within `searchMisses` of the events.
            if (++missed > events.length * config.searchMisses) break;
            continue;
          }
          const f = link.frames[chosen];
          pairs.push({ tx: f.x, ty: f.y, sx: event.x, sy: event.y, lag: event.time - f.time, frameTime: f.frame.sample.t });
          lags.push(event.time - f.time);
        }
        if (missed > events.length * config.searchMisses || pairs.length < config.searchEvents) continue;
        const result = fit(pairs);
        if (!result) continue;
        trials.push({ score: result.rms / Math.max(widthScale(result.transform), 1e-12), order: trials.length, device, lags, spread: result.spread });
      }
    }
    trials.sort((a, b) => a.score - b.score || a.order - b.order);
    if (!trials.length || trials[0].score > config.tolerance || trials[0].spread < config.minimumSpread
        || (trials.length > 1 && trials[1].score <= config.tolerance)) {
      this.failedSearches += 1;
      return false;
    }
    this.failedSearches = 0;
    const best = trials[0];
    this.clockOffset = Math.min(...best.lags);
    this.lags = [...best.lags];
    if (!this.sources.has(anchor.source)) this.sources.set(anchor.source, { inside: false, device: null, confirmed: false, enteredAt: 0, lastTime: 0 });
    this.sources.get(anchor.source).device = best.device;
    return true;
  }

  _add(pair, device, source, out) {
    const config = this.configuration, link = this.devices.get(device);
    const keep = () => { if (link.pairs.length > config.pairWindow) link.pairs.splice(0, link.pairs.length - config.pairWindow); };
    if (!link.map) {
      link.pairs.push(pair); keep();
      this._refit(link, device, out);
      if (link.ready) this._catchUp(source, device, link, out);
      return;
    }
    const m = link.map, tolerance = config.tolerance * widthScale(m);
    if (residual(m, pair) <= Math.max(tolerance, 3 * link.rms)) {
      link.suspects = []; link.pairs.push(pair); keep();
      this._refit(link, device, out);
      if (link.ready) this._catchUp(source, device, link, out);
      return;
    }
    link.suspects.push(pair);
    if (this.sources.has(source)) this.sources.get(source).confirmed = false;
    if (link.suspects.length < 2) return;
    const moved = translated(m, link.suspects);
    if (link.suspects.every((s) => residual(moved, s) <= tolerance)) {
      const movedAt = link.pairs.length ? link.pairs[link.pairs.length - 1].frameTime + 1 : link.suspects[0].frameTime;
      link.pairs = link.suspects; link.suspects = [];
      link.map = moved; link.rms = rmsResidual(moved, link.pairs);
      if (link.ready) {
        link.recordMap(moved, movedAt, true);
        out.push(this._estimate(link, device, "moved", link.ready));
        this._catchUp(source, device, link, out);
      }
    } else if (link.suspects.length >= 3) {
      const wasReady = link.ready;
      link.pairs = link.suspects; link.suspects = [];
      link.map = null; link.ready = false; link.linearError = Infinity; link.history = [];
      const lost = fit(link.pairs);
      if (wasReady && lost) {
        out.push({ type: "map", device, transform: lost.transform, ready: false, change: "lost", pairs: link.pairs.length,
                   rms: lost.rms, clockOffset: this.clockOffset ?? 0, appEvents: this.appEvents });
      }
      this._refit(link, device, out);
    }
  }

  _refit(link, device, out) {
    const config = this.configuration;
    let window = link.pairs.slice(-config.pairWindow);
    let result = window.length >= config.minimumPairs ? fit(window) : null;
    if (result && !link.ready && result.rms > config.tolerance * widthScale(result.transform)) {
      // Before a map, an event stamped late may have been paired with another frame: where most
      // pairs lie within the tolerance of their fit, the others are dropped as such.
      const limit = config.tolerance * widthScale(result.transform);
      const kept = window.filter((p) => residual(result.transform, p) <= limit);
      if (kept.length >= config.minimumPairs && 4 * kept.length >= 3 * window.length) {
        link.pairs = kept; window = kept; result = fit(window);
      }
    }
    if (result && result.spread >= config.minimumSpread && result.rms <= config.tolerance * widthScale(result.transform)) {
      const error = standardError(result, config.reach);
      if (error <= Math.max(config.accuracy, result.rms) / 3 && (!link.ready || error <= link.linearError)) {
        link.map = result.transform; link.rms = result.rms; link.linearError = error;
        if (!link.ready) {
          link.ready = true;
          link.recordMap(result.transform, window[0].frameTime, true);
          out.push(this._estimate(link, device, "ready", true));
        } else link.recordMap(result.transform, window[0].frameTime, false);
        return;
      }
    }
    if (link.ready && link.map) {
      const moved = translated(link.map, window);
      link.map = moved; link.rms = rmsResidual(moved, window);
      link.recordMap(moved, window[0].frameTime, false);
    }
  }

  _estimate(link, device, change, ready) {
    return { type: "map", device, transform: [...(link.map || IDENTITY)], ready, change, pairs: link.pairs.length,
             rms: link.rms, clockOffset: this.clockOffset ?? 0, appEvents: this.appEvents };
  }

  _hasPen(device, time) {
    const offset = this.clockOffset ?? 0;
    for (const p of this.sources.values()) {
      if (p.inside && p.confirmed && p.device === device && time <= p.lastTime - offset + this.configuration.lead) return true;
    }
    return false;
  }

  // Frames of `device` from the source's proximity-in (not before the current map) up to `lead` ms
  // past the app's newest event, not delivered yet, in order.
  _catchUp(source, device, link, out, until = null) {
    const pen = this.sources.get(source);
    if (!pen || !pen.inside) return;
    pen.confirmed = true; pen.device = device;
    const m = link.deliveryMap;
    if (!m || this.clockOffset === null) return;
    const entered = pen.enteredAt - this.clockOffset - 1 - this.configuration.timeSlack;
    const since = Math.max(entered, (link.history.length ? link.history[link.history.length - 1][0] : 0) / 1000, link.lastDelivered / 1000);
    const limit = until ?? pen.lastTime - this.clockOffset + this.configuration.lead;
    for (let i = link.firstFrame(since); i < link.frames.length && link.frames[i].time <= limit; i++) {
      const frame = link.frames[i].frame;
      if (frame.sample.t > link.lastDelivered) this._deliver(frame, m, link, out);
    }
  }

  _deliverIfHere(frame, out) {
    const device = frame.device || 0, link = this.devices.get(device);
    const m = link ? link.deliveryMap : null;
    if (!m || !this._hasPen(device, frame.sample.t / 1000)) return;
    this._deliver(frame, m, link, out);
  }

  _deliver(frame, m, link, out) {
    const mapped = mapFrame(frame, m);
    const { x, y } = mapped.sample;
    if (this.surfaceWidth !== null && this.surfaceHeight !== null && !(x >= 0 && x <= this.surfaceWidth && y >= 0 && y <= this.surfaceHeight)) return;
    link.lastDelivered = frame.sample.t;
    const stroke = frame.stroke;
    let waiting = [];
    if (stroke !== undefined && stroke !== null && !this.owned.has(stroke)) {
      this.owned.add(stroke);
      if (this.begans.has(stroke)) out.push(this.begans.get(stroke));
      waiting = this.waitingUpdates.filter((u) => u.stroke === stroke);
      if (waiting.length) this.waitingUpdates = this.waitingUpdates.filter((u) => u.stroke !== stroke);
    }
    out.push(mapped);
    // The stroke's updates that came before it was here, after its first frame (an app matches an
    // update to its frame by updateIndex, and may get the update before the frame it refines).
    for (const u of waiting) out.push({ ...u, sample: mapSample(u.sample, m) });
  }

  // An `ended` goes out once the page's own pen has been paired up to its time (or a frame at or
  // past it was delivered), so that it follows every frame of its stroke that comes here; with
  // `force` (the pen left, the input ended), or once penkit's frames are `endedHold` ms past it
  // (the page's pen is not catching up), it goes out as it is. Only for strokes delivered here;
  // in penkit's order; always before its stroke's `stroke` (_releaseStrokes).
  _releaseEnded(force, out, stroke = null) {
    // Up to and including `stroke`'s own, whatever their state, when its `stroke` goes out.
    let through = stroke === null ? -1 : this.heldEnded.findIndex((e) => e.stroke === stroke);
    while (this.heldEnded.length) {
      const first = this.heldEnded[0], link = this.devices.get(first.device || 0);
      const end = first.t ?? 0;
      const newest = link && link.frames.length ? link.frames[link.frames.length - 1].frame.sample.t : 0;
      // (Only with the map ready: frames paired before it are delivered when it gets ready.)
      const caughtUp = link && link.ready && ((link.pairs.length ? link.pairs[link.pairs.length - 1].frameTime : 0) >= end || link.lastDelivered >= end);
      if (!(force || !link || caughtUp || through >= 0 || newest - end > this.configuration.endedHold * 1000)) return;
      this.heldEnded.shift();
      through -= 1;
      if (this.owned.has(first.stroke)) out.push(first);
    }
  }

  _releaseStrokes(force, out) {
    this._releaseEnded(force, out);
    while (this.held.length) {
      const first = this.held[0], link = this.devices.get(first.device || 0);
      if (!link) { this.held.shift(); continue; }
      const points = first.stroke.points || [];
      const end = points.length ? points[points.length - 1].t : 0;
      // (Not before the map is ready: the frames paired so far are delivered when it gets ready, and
      // a stroke settled before that would be dropped though its frames then come.)
      if (!force && (!link.ready || (link.pairs.length ? link.pairs[link.pairs.length - 1].frameTime : 0) < end)) return;
      this.held.shift();
      if (this.heldEnded.some((e) => e.stroke === first.stroke.id)) this._releaseEnded(false, out, first.stroke.id);
      this.waitingUpdates = this.waitingUpdates.filter((u) => u.stroke !== first.stroke.id);
      if (this.owned.delete(first.stroke.id)) out.push(mapStroke(first, link));  // one of its frames was delivered here
    }
  }
}
