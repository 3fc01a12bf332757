// penkit view's debug page (/debug): receives the feed's JSON lines over the WebSocket and draws
// them once per display frame (requestAnimationFrame). `window.penkitView` exposes its state for the
// browser test (scripts/view-browser-test.py).
"use strict";
(() => {
  const COLORS = { live: "#1e63d6", predicted: "#e0109a", estimated: "#f08c00", hover: "#13a538", cancelled: "#c03030", eraser: "#9a9a9a" };
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const ink = $("ink"), overlay = $("overlay");
  const inkCtx = ink.getContext("2d"), overCtx = overlay.getContext("2d");

  // Everything received, applied once per display frame.
  const queue = [];
  const strokes = new Map();        // stroke id → { ink, tool, points: [sample], final: stroke|null }
  const pending = new Map();        // updateIndex → sample still expecting an update
  let predicted = null;             // { stroke, from: sample, samples: [sample] } of the latest contact frame
  let hover = null;                 // latest hover sample with its tool, or null out of proximity
  let area = null;                  // { width, height, fixed } in mm
  let scale = 1;                    // CSS px per mm
  let redrawInk = true;
  let finalized = 0, dropped = 0, paused = false, pauseWhenPredicting = false, ended = false;
  let clockOffset = Infinity;       // page µs − feed µs, smallest seen (least transit)
  const rateTimes = [], latencies = [], horizons = [], errors = [];
  let openPredictions = [];         // predicted tips waiting for the real pen to reach their time
  let drawnPredicted = 0;
  let drawings = [];                // the stroke model's SVGs of finalized ink: { img, box, strokes, loaded }
  let drawnFinal = 0;               // finalized strokes the loaded SVGs account for
  let lastSample = null;            // the latest real sample, for the pose line
  const pendingLatency = [];        // sample times of frames applied since the last draw

  const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onopen = () => status("connected");
  ws.onclose = () => status(ended ? $("status").textContent : "disconnected");
  ws.onmessage = (event) => {
    const arrived = performance.now();
    for (const line of event.data.split("\n")) if (line) queue.push([line, arrived]);
  };

  function status(text) { $("status").textContent = text; }
  function mm(v) { return v.toFixed(2) + " mm"; }
  function keep(list, value, limit) { list.push(value); if (list.length > limit) list.shift(); }
  function median(list) {
    if (!list.length) return NaN;
    const s = [...list].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  }
  function color(ink) {
    const hex = (ink && ink.color) || "#000000ff";
    const a = parseInt(hex.slice(7, 9) || "ff", 16) / 255;
    return { rgb: hex.slice(0, 7), alpha: a };
  }

  // --- geometry: mm → CSS px, the sensor's top-left at the canvas's top-left ---
  function grow(x, y) {
    if (area && area.fixed) return;
    const step = 50;
    const w = Math.max(area ? area.width : step, Math.ceil((x + 1) / step) * step);
    const h = Math.max(area ? area.height : step, Math.ceil((y + 1) / step) * step);
    if (!area || w !== area.width || h !== area.height) { area = { width: w, height: h, fixed: false }; redrawInk = true; }
  }
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    const w = ink.clientWidth, h = ink.clientHeight;
    for (const c of [ink, overlay]) { c.width = Math.round(w * ratio); c.height = Math.round(h * ratio); }
    for (const ctx of [inkCtx, overCtx]) ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    redrawInk = true;
  }
  function fit() {
    if (!area) return;
    scale = Math.min(ink.clientWidth / area.width, ink.clientHeight / area.height);
  }
  window.addEventListener("resize", resize);

  // --- messages ---
  function apply(m, arrived) {
    switch (m.type) {
      case "view":
        if (m.area) area = { width: m.area.width, height: m.area.height, fixed: true };
        $("source").textContent = m.source || m.mode;
        if (m.device) $("device").textContent = m.device;
        redrawInk = true;
        break;
      case "hello":
      case "subscribed": // its list is newer than hello's: a tablet plugged in between is in it
        if (m.devices && m.devices.length) $("device").textContent = m.devices.map((d) => d.name).join(", ");
        break;
      case "device":
        $("device").textContent = m.device.name + (m.change === "removed" ? " (removed)" : "");
        break;
      case "clock":
        clockOffset = Math.min(clockOffset, arrived * 1000 - m.t);
        break;
      case "frame": frame(m); break;
      case "began":
        strokes.set(m.stroke, { ink: m.ink, tool: m.tool, points: [], final: null });
        break;
      case "update":
        if (m.sample.expecting && m.sample.expecting.length) pending.set(m.updateIndex, m.sample);
        else pending.delete(m.updateIndex);
        break;
      case "ended":
        if (predicted && predicted.stroke === m.stroke) predicted = null;
        break;
      case "stroke": {
        const s = m.stroke;
        const entry = strokes.get(s.id) || { ink: s.ink, tool: s.tool, points: [] };
        entry.final = s;
        entry.order = finalized + 1;
        strokes.set(s.id, entry);
        for (const p of s.points) grow(p.x, p.y);
        for (const p of s.points) if (p.updateIndex !== undefined) pending.delete(p.updateIndex);
        finalized += 1;
        $("finalized").textContent = String(finalized);
        redrawInk = true;
        break;
      }
      case "drawing": addDrawing(m); break;
      case "proximity":
        $("tool").textContent = m.tool.type;
        if (m.state === "out") hover = null;
        break;
      case "dropped":
        dropped += m.frames || 0;
        $("dropped").textContent = String(dropped);
        break;
      case "error": status(`penkitd: ${m.code}: ${m.message}`); break;
      case "shutdown": ended = true; status(`penkitd stopped (${m.reason})`); break;
      case "end": ended = true; status(m.message || "replay finished"); break;
    }
  }

  function frame(m) {
    const s = m.sample;
    $("tool").textContent = m.tool.type;
    lastSample = s;
    keep(rateTimes, s.t, 400);
    if (clockOffset !== Infinity) pendingLatency.push(s.t);
    grow(s.x, s.y);
    if (m.stroke === undefined || m.stroke === null) {
      hover = Object.assign({ tool: m.tool }, s);
      predicted = null;
      return;
    }
    hover = null;
    let entry = strokes.get(m.stroke);
    if (!entry) { entry = { ink: { color: "#000000ff", width: 1 }, tool: m.tool, points: [], final: null }; strokes.set(m.stroke, entry); }
    const previous = entry.points[entry.points.length - 1];
    entry.points.push(s);
    if (!redrawInk && previous) liveSegment(entry, previous, s);
    if (s.expecting && s.expecting.length && s.updateIndex !== undefined) pending.set(s.updateIndex, s);
    judgePredictions(m.stroke, previous, s);
    const samples = m.predicted || [];
    predicted = samples.length ? { stroke: m.stroke, from: s, samples } : null;
    if (samples.length) {
      const tip = samples[samples.length - 1];
      keep(horizons, (tip.t - s.t) / 1000, 100);
      openPredictions.push({ stroke: m.stroke, t: tip.t, x: tip.x, y: tip.y });
    }
  }

  // A prediction's error: the distance from its tip to where the real pen was at the tip's time,
  // interpolated between the two real samples around that time.
  function judgePredictions(stroke, a, b) {
    if (!a) return;
    openPredictions = openPredictions.filter((p) => {
      if (p.stroke !== stroke) return false;
      if (p.t > b.t) return true;
      if (p.t < a.t) return false;
      const k = b.t === a.t ? 1 : (p.t - a.t) / (b.t - a.t);
      const x = a.x + (b.x - a.x) * k, y = a.y + (b.y - a.y) * k;
      keep(errors, Math.hypot(p.x - x, p.y - y), 200);
      return false;
    });
  }

  // The renderer's SVG for finalized ink. Its viewBox says where it lies, in mm. Until it has
  // loaded, the page's own polyline of the stroke's points stands in for it.
  function addDrawing(m) {
    const box = (m.svg.match(/viewBox="([^"]+)"/) || [])[1];
    if (!box) return;
    const [x, y, w, h] = box.split(/\s+/).map(Number);
    const entry = { img: new Image(), box: { x, y, w, h }, strokes: m.strokes, loaded: false, replace: m.replace };
    entry.img.onload = () => { entry.loaded = true; settleDrawings(); };
    entry.img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(m.svg);
    drawings.push(entry);
  }
  // The loaded prefix is drawn; a loaded replacement drops everything before it.
  function settleDrawings() {
    let last = -1;
    while (last + 1 < drawings.length && drawings[last + 1].loaded) last += 1;
    for (let i = last; i > 0; i--) if (drawings[i].replace) { drawings = drawings.slice(i); last -= i; break; }
    if (last >= 0) drawnFinal = drawings[last].strokes;
    redrawInk = true;
  }

  // --- drawing ---
  function liveWidth(entry, s) {
    const w = (entry.ink && entry.ink.width) || 1;
    return Math.max(1, w * (0.25 + 1.5 * (s.force || 0)) * scale);
  }
  function liveSegment(entry, a, b) {
    inkCtx.strokeStyle = entry.tool && entry.tool.type === "eraser" ? COLORS.eraser : COLORS.live;
    inkCtx.globalAlpha = 1;
    inkCtx.lineCap = "round";
    inkCtx.lineWidth = (liveWidth(entry, a) + liveWidth(entry, b)) / 2;
    inkCtx.beginPath();
    inkCtx.moveTo(a.x * scale, a.y * scale);
    inkCtx.lineTo(b.x * scale, b.y * scale);
    inkCtx.stroke();
  }
  function finalStroke(s) {
    const c = color(s.ink);
    inkCtx.strokeStyle = s.cancelled ? COLORS.cancelled : (s.tool && s.tool.type === "eraser" ? COLORS.eraser : c.rgb);
    inkCtx.lineCap = "round";
    const pts = s.points;
    if (pts.length === 1) {
      inkCtx.globalAlpha = c.alpha * (pts[0].opacity ?? 1);
      inkCtx.fillStyle = inkCtx.strokeStyle;
      inkCtx.beginPath();
      inkCtx.arc(pts[0].x * scale, pts[0].y * scale, Math.max(0.5, pts[0].size * scale / 2), 0, 2 * Math.PI);
      inkCtx.fill();
    }
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1], b = pts[i];
      inkCtx.globalAlpha = (a.opacity ?? 1) * c.alpha;
      inkCtx.lineWidth = Math.max(1, (a.size + b.size) / 2 * scale);
      inkCtx.beginPath();
      inkCtx.moveTo(a.x * scale, a.y * scale);
      inkCtx.lineTo(b.x * scale, b.y * scale);
      inkCtx.stroke();
    }
    inkCtx.globalAlpha = 1;
  }
  function drawAllInk() {
    inkCtx.clearRect(0, 0, ink.clientWidth, ink.clientHeight);
    // The SVGs have white backgrounds: multiplied onto the white canvas, only their ink shows.
    inkCtx.globalCompositeOperation = "multiply";
    for (const d of drawings) {
      if (!d.loaded) break;
      inkCtx.drawImage(d.img, d.box.x * scale, d.box.y * scale, d.box.w * scale, d.box.h * scale);
    }
    inkCtx.globalCompositeOperation = "source-over";
    for (const entry of strokes.values()) {
      if (entry.final) { if (entry.order > drawnFinal) finalStroke(entry.final); continue; }
      for (let i = 1; i < entry.points.length; i++) liveSegment(entry, entry.points[i - 1], entry.points[i]);
    }
    redrawInk = false;
  }
  function drawOverlay() {
    overCtx.clearRect(0, 0, overlay.clientWidth, overlay.clientHeight);
    drawnPredicted = 0;
    if (predicted) {
      overCtx.strokeStyle = COLORS.predicted;
      overCtx.fillStyle = COLORS.predicted;
      overCtx.lineWidth = 3;
      overCtx.lineCap = "round";
      overCtx.beginPath();
      overCtx.moveTo(predicted.from.x * scale, predicted.from.y * scale);
      for (const p of predicted.samples) overCtx.lineTo(p.x * scale, p.y * scale);
      overCtx.stroke();
      for (const p of predicted.samples) {
        overCtx.beginPath();
        overCtx.arc(p.x * scale, p.y * scale, 2.5, 0, 2 * Math.PI);
        overCtx.fill();
      }
      drawnPredicted = predicted.samples.length;
    }
    overCtx.strokeStyle = COLORS.estimated;
    overCtx.lineWidth = 2;
    for (const s of pending.values()) {
      overCtx.beginPath();
      overCtx.arc(s.x * scale, s.y * scale, 5, 0, 2 * Math.PI);
      overCtx.stroke();
    }
    if (hover) drawHover(hover);
  }
  // The cursor: a ring that widens with distance, and the pen's shadow on the tablet, pointing
  // along the azimuth, longer the more the pen leans (cos altitude).
  function drawHover(h) {
    const x = h.x * scale, y = h.y * scale;
    const r = 4 + 24 * (h.distance || 0);
    const lean = Math.cos(h.altitude ?? Math.PI / 2) * 40;
    overCtx.strokeStyle = COLORS.hover;
    overCtx.lineWidth = 2;
    overCtx.beginPath();
    overCtx.arc(x, y, r, 0, 2 * Math.PI);
    overCtx.moveTo(x, y);
    overCtx.lineTo(x + Math.cos(h.azimuth || 0) * lean, y + Math.sin(h.azimuth || 0) * lean);
    overCtx.stroke();
  }
  function pose(h) {
    $("pose").textContent = `az ${(h.azimuth * 180 / Math.PI).toFixed(0)}°, alt ${(h.altitude * 180 / Math.PI).toFixed(0)}°, dist ${(h.distance || 0).toFixed(2)}, force ${(h.force || 0).toFixed(2)}`;
  }

  function panel() {
    if (rateTimes.length > 2) {
      const span = (rateTimes[rateTimes.length - 1] - rateTimes[0]) / 1e6;
      const gaps = [];
      for (let i = 1; i < rateTimes.length; i++) { const g = rateTimes[i] - rateTimes[i - 1]; if (g > 0 && g < 50000) gaps.push(g); }
      const gap = median(gaps);
      if (span > 0 && gap > 0) $("rate").textContent = `${(1e6 / gap).toFixed(0)} Hz`;
    }
    if (lastSample) pose(lastSample);
    const lat = median(latencies);
    $("latency").textContent = isNaN(lat) ? "–" : `${lat.toFixed(1)} ms (median)`;
    const hz = median(horizons);
    $("horizon").textContent = isNaN(hz) ? "–" : `${hz.toFixed(1)} ms`;
    if (errors.length) {
      const rms = Math.sqrt(errors.reduce((sum, e) => sum + e * e, 0) / errors.length);
      $("error").textContent = `${mm(rms)} RMS (${errors.length})`;
    }
  }

  function tick(now) {
    if (!paused) {
      const batch = queue.splice(0, queue.length);
      for (const [line, arrived] of batch) {
        let m;
        try { m = JSON.parse(line); } catch { continue; }
        apply(m, arrived);
      }
      // A replay says nothing when the pen leaves proximity: a hover sample over 100 ms old
      // (on the feed's clock) means the pen is gone; after the end, nothing hovers.
      if (hover && (ended || (clockOffset !== Infinity && now * 1000 - clockOffset - hover.t > 100000))) hover = null;
      fit();
      if (redrawInk) drawAllInk();
      drawOverlay();
      const drawnAt = performance.now() * 1000;
      for (const t of pendingLatency) keep(latencies, (drawnAt - clockOffset - t) / 1000, 200);
      pendingLatency.length = 0;
      panel();
      if (pauseWhenPredicting && drawnPredicted > 0) { pauseWhenPredicting = false; setPaused(true); }
    }
    requestAnimationFrame(tick);
  }
  function setPaused(value) {
    paused = value;
    $("pause").textContent = paused ? "resume" : "pause";
  }
  $("pause").addEventListener("click", () => setPaused(!paused));

  // For the browser test and for people at the console.
  window.penkitView = {
    get finalized() { return finalized; },
    get finalizedFromModel() { return drawnFinal; },
    get paused() { return paused; },
    get ended() { return ended; },
    get predictedSamples() { return drawnPredicted; },
    get liveSamples() { let n = 0; for (const e of strokes.values()) if (!e.final) n += e.points.length; return n; },
    get scale() { return scale; },
    get area() { return area; },
    pauseWhenPredicting() { pauseWhenPredicting = true; },
    resume() { setPaused(false); },
  };
  resize();
  requestAnimationFrame(tick);
})();
