// canvas.js: the canvas page (`/`), PencilKit's canvas view with its tool picker. penkit's feed
// over the WebSocket and the page's own pen PointerEvents go into one SurfacePairing (as on
// `/surface`); what it delivers, in page px, drives the picked tool: an ink draws live ink with
// penkit's predicted ink ahead of it and takes each `update` (late force, tilt) into the points
// already drawn; the finalized `stroke` replaces the live ink with the stroke model's points. The
// erasers erase while they move; the lasso selects. A mouse or a finger uses the same tools with
// the page's own events (PencilKit's drawing policy "any input"), without prediction.
// The pen goes through the pairing only while an ink is picked: penkit's prediction, late force and
// stroke model are what ink needs. With the lasso or an eraser picked, the pen's own events drive
// that tool directly, as PencilKit's lasso and erasers take the touches themselves: it answers at
// once, and works before the pairing has learned where the window is (or without penkitd at all).
// (The pen's eraser end under an ink still comes through penkit, whose frames say which end it is.)
// `window.penkitCanvas` exposes the state for the browser test.

const query = new URL(import.meta.url).search;
const token = new URLSearchParams(location.search).get("token") || "";
const [{ SurfacePairing }, { drawStroke, PX_PER_MM, INKS }, { CanvasDrawing, makeStroke, bounds }, { ToolPicker }] = await Promise.all([
  import(`./penkit-surface.js${query}`), import(`./canvas-inks.js${query}`),
  import(`./canvas-drawing.js${query}`), import(`./canvas-picker.js${query}`),
]);

const $ = (id) => document.getElementById(id);
const layers = { ink: $("canvas-ink"), live: $("canvas-live"), overlay: $("canvas-overlay") };
const ctx = { ink: layers.ink.getContext("2d"), live: layers.live.getContext("2d"), overlay: layers.overlay.getContext("2d") };
let scratch = null, ratio = 1;
const status = (text) => { $("canvas-status").textContent = text; };

const drawing = new CanvasDrawing();
const state = {
  ready: false, map: null, appEvents: 0, frames: 0, received: 0, updates: 0, appliedUpdates: 0, appliedEarly: 0, firstFrame: null, ended: false, error: null,
  finalized: [],          // penkit stroke ids committed from their `stroke` delivery, in order
  drawnVersion: -1,       // the drawing's version the ink layer shows
  predicted: null,        // { stroke, points } penkit's predicted samples of the newest contact frame
  hover: null,            // { x, y, eraser } of the pen hovering here
  saved: null,            // { bytes } of the last save
  direct: null,           // { kind, pointerType, events, last, open } of the newest gesture from the page's own events
  // The browser test freezes the picture at the first contact frame with predictions from
  // freezeAtTime (µs, penkit's clock) on, to look at it; thaw() goes on.
  freezeAtTime: null, freezing: null, frozen: null,
};
const gestures = new Map();   // penkit stroke id → gesture
const ignored = new Set();    // penkit stroke ids whose gesture was not ink (its `stroke` draws nothing)
let mouseGesture = null;
let liveDirty = true;

// Picking another tool ends a selection, as in PencilKit.
let pickedTool = null;
const picker = new ToolPicker($("picker"), (p) => {
  if (p.tool !== pickedTool) { pickedTool = p.tool; drawing.deselect(); liveDirty = true; }
  updateButtons();
});

// --- gestures: one tool from pen-down to pen-up ---
function begin(point, eraserEnd) {
  const tool = eraserEnd ? picker.eraser : picker.tool;
  if (INKS[tool]) return { kind: "ink", ink: picker.ink, points: [point] };
  if (tool === "objectEraser" || tool === "pixelEraser") {
    const g = { kind: tool, radius: picker.eraserWidth(tool) * PX_PER_MM / 2, last: point };
    drawing.begin();
    erase(g, point);
    return g;
  }
  // The lasso: a drag that starts on the selection moves it; anywhere else it draws a new lasso.
  const box = drawing.selection.size ? drawing.selectionBounds() : null;
  if (box && point.x >= box.minX - 10 && point.x <= box.maxX + 10 && point.y >= box.minY - 10 && point.y <= box.maxY + 10) {
    drawing.begin();
    return { kind: "move", last: point };
  }
  drawing.deselect();
  return { kind: "lasso", points: [point] };
}
function erase(g, point) {
  if (g.kind === "objectEraser") drawing.eraseObjects(g.last, point, g.radius);
  else drawing.erasePixels(g.last, point, g.radius);
  g.last = point;
}
function move(g, point) {
  switch (g.kind) {
    case "ink": case "lasso": g.points.push(point); break;
    case "move": drawing.moveSelection(point.x - g.last.x, point.y - g.last.y); g.last = point; break;
    default: erase(g, point);
  }
  liveDirty = true;
}
function end(g, fromPenkit) {
  switch (g.kind) {
    case "ink": if (!fromPenkit) drawing.add(makeStroke(g.ink, g.points)); break;  // penkit's waits for its `stroke`
    case "lasso": drawing.select(g.points); break;
    default: drawing.end();
  }
  liveDirty = true;
  updateButtons();
}

// --- penkit's deliveries, in page px ---
const backlog = [];
const early = new Map();      // updateIndex → refined sample, for frames not delivered yet
function refine(p, s) { p.force = s.force ?? p.force; p.altitude = s.altitude ?? p.altitude; p.azimuth = s.azimuth ?? p.azimuth; p.roll = s.roll ?? p.roll; }
function pointOf(s) {
  const p = { x: s.x, y: s.y, t: s.t, force: s.force ?? 0, altitude: s.altitude ?? Math.PI / 2, azimuth: s.azimuth ?? 0, roll: s.roll ?? 0, updateIndex: s.updateIndex };
  if (s.updateIndex !== undefined && early.has(s.updateIndex)) { refine(p, early.get(s.updateIndex)); early.delete(s.updateIndex); state.appliedEarly += 1; }
  return p;
}
function take(deliveries) {
  for (const d of deliveries) {
    if (state.freezing) { backlog.push(d); continue; }
    switch (d.type) {
      case "map":
        state.ready = d.ready; state.map = d.transform;
        status(d.ready ? `penkit's pen is here (map ${d.change} after ${d.appEvents} pen events)` : "learning where this window is…");
        break;
      case "frame": {
        state.frames += 1;
        const p = pointOf(d.sample), eraserEnd = d.tool && d.tool.type === "eraser";
        if (d.stroke === undefined || d.stroke === null) { state.hover = { x: p.x, y: p.y, eraser: eraserEnd }; state.predicted = null; break; }
        state.hover = null;
        let g = gestures.get(d.stroke);
        if (ignored.has(d.stroke)) break;
        if (!g && !eraserEnd && penDirect()) {
          // The pen's own events drive the picked lasso or eraser (see the top): a frame the
          // pairing delivered just before it learned the pen left is not a second gesture.
          ignored.add(d.stroke); state.predicted = null; break;
        }
        if (!g) { g = begin(p, eraserEnd); gestures.set(d.stroke, g); liveDirty = true; } else move(g, p);
        state.predicted = g.kind === "ink" && d.predicted && d.predicted.length
          ? { stroke: d.stroke, points: d.predicted.map(pointOf) } : null;
        if (state.freezeAtTime !== null && d.sample.t >= state.freezeAtTime && state.predicted) {
          state.freezing = { t: d.sample.t, stroke: d.stroke, kind: g.kind, open: gestures.has(d.stroke) };
        }
        break;
      }
      case "update": {
        state.updates += 1;
        const g = gestures.get(d.stroke);
        if (!g || g.kind !== "ink") break;
        // Late force or tilt: the point already drawn takes its real values; the live ink is redrawn with them.
        const p = g.points.find((q) => q.updateIndex === d.updateIndex);
        if (p) { state.appliedUpdates += 1; refine(p, d.sample); liveDirty = true; break; }
        // penkit's feed runs ahead of the page's own pen: the frame this update refines may not be
        // delivered yet. It takes the update when it comes (pointOf).
        early.set(d.updateIndex, d.sample);
        if (early.size > 4096) early.delete(early.keys().next().value);
        break;
      }
      case "ended": {
        // The pairing holds `ended` until the page's own pen has caught up with the stroke's end, so
        // its frames have all come: an eraser pass or a lasso ends here, at the lift, as in
        // PencilKit. Live ink stays until its finalized `stroke` replaces it (the stroke model's
        // points); a frame of an ended gesture coming after all (the pairing's bound) is not a new one.
        state.predicted = null;
        liveDirty = true;
        const g = gestures.get(d.stroke);
        if (g && g.kind !== "ink") { end(g, true); gestures.delete(d.stroke); ignored.add(d.stroke); }
        break;
      }
      case "stroke": {
        const id = d.stroke.id, g = gestures.get(id);
        // (A non-ink gesture whose `ended` never came here: it ends with its stroke.)
        if (g && g.kind !== "ink") { end(g, true); gestures.delete(id); ignored.add(id); }
        if (ignored.has(id) || (d.stroke.ink && d.stroke.ink.type === "eraser")) break;
        // The stroke model's points (final force and tilt) replace the live ink, in the ink picked at pen-down.
        const ink = g && g.kind === "ink" ? g.ink : picker.ink;
        gestures.delete(id);
        if (!ink) break;
        drawing.add(makeStroke(ink, d.stroke.points.map(pointOf)));
        state.finalized.push(id);
        liveDirty = true;
        updateButtons();
        break;
      }
    }
  }
}
state.thaw = () => { state.freezeAtTime = null; state.freezing = null; state.frozen = null; take(backlog.splice(0, backlog.length)); };

const pairing = new SurfacePairing({ surfaceWidth: layers.ink.clientWidth, surfaceHeight: layers.ink.clientHeight });
function receive(text) {
  for (const line of text.split("\n")) {
    if (!line) continue;
    let m;
    try { m = JSON.parse(line); } catch { continue; }
    if (m.type === "end") { state.ended = true; continue; }
    if (m.type === "error") { state.error = m.message; status(`penkit: ${m.message}`); continue; }
    if (m.type === "action") { if (picker.action(m.action)) status(`action: ${m.action}`); continue; }
    if (m.type === "frame") {
      state.received += 1;
      // When penkit's first frame came, on the page's clock: the browser test keeps its pen in step with the feed.
      if (!state.firstFrame) state.firstFrame = { at: performance.now(), t: m.sample.t };
    }
    take(pairing.handleMessage(m));
  }
}
const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
ws.onopen = () => status("connected: draw with the pen on the white area");
ws.onmessage = (event) => receive(event.data);
ws.onclose = () => { if (!state.ended) status("disconnected from penkit view"); };

// --- the page's own pointer events ---
// Whether the pen drives the picked tool itself (not an ink: see the top of this file).
const penDirect = () => !INKS[picker.tool];
let pairingHasPen = false;    // the pairing was told the pen is here, and not yet that it left
function own(e, proximity) {
  if (e.pointerType !== "pen") return;
  if (penDirect() && !penkitGesture(e)) {
    // Not for the pairing: if it thinks the pen is here, the pen has left its surface.
    if (pairingHasPen) { pairingHasPen = false; take(pairing.handleAppEvent({ time: e.timeStamp, x: 0, y: 0, proximity: "out", source: String(e.pointerId) })); }
    return;
  }
  const box = layers.ink.getBoundingClientRect();
  const events = proximity === "move" && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const c of events.length ? events : [e]) {
    const x = c.clientX - box.left, y = c.clientY - box.top;
    if (proximity !== "out" && (x < 0 || y < 0 || x > box.width || y > box.height)) continue;
    state.appEvents += 1;
    pairingHasPen = proximity !== "out";
    take(pairing.handleAppEvent({ time: c.timeStamp, x, y, proximity, source: String(e.pointerId) }));
  }
}
// A pen stroke that began under an ink stays with the pairing to its end, whatever is picked meanwhile.
const penkitStrokes = new Set();   // pointerIds of pen strokes begun through the pairing
const penkitGesture = (e) => penkitStrokes.has(e.pointerId);
const surface = layers.ink;
surface.addEventListener("pointerenter", (e) => own(e, "in"));
surface.addEventListener("pointerleave", (e) => { own(e, "out"); if (e.pointerType === "pen") state.hover = null; });
surface.addEventListener("pointerdown", (e) => { if (e.pointerType === "pen" && !penDirect()) penkitStrokes.add(e.pointerId); });
for (const type of ["pointermove", "pointerdown", "pointerup"]) surface.addEventListener(type, (e) => own(e, "move"));
for (const type of ["pointerup", "pointercancel"]) surface.addEventListener(type, (e) => penkitStrokes.delete(e.pointerId));

// A mouse, a finger, or the pen with the lasso or an eraser picked: the tool from the page's own events.
const direct = (e) => e.pointerType !== "pen" || (penDirect() && !penkitGesture(e));
const eraserEnd = (e) => e.pointerType === "pen" && ((e.buttons & 32) !== 0 || e.button === 5);
function ownPoint(e, c) {
  const box = layers.ink.getBoundingClientRect();
  return { x: c.clientX - box.left, y: c.clientY - box.top, t: Math.round(c.timeStamp * 1000),
           force: e.pointerType === "pen" ? c.pressure : (c.pressure || 0.5), altitude: Math.PI / 2, azimuth: 0 };
}
let directPointer = null;
surface.addEventListener("pointerdown", (e) => {
  if (!direct(e) || mouseGesture || (e.pointerType !== "pen" && e.button !== 0)) return;
  surface.setPointerCapture(e.pointerId);
  directPointer = e.pointerId;
  mouseGesture = begin(ownPoint(e, e), eraserEnd(e));
  state.direct = { kind: mouseGesture.kind, pointerType: e.pointerType, events: 1, last: ownPoint(e, e), open: true };
  state.hover = null;
});
surface.addEventListener("pointermove", (e) => {
  if (!direct(e)) return;
  if (mouseGesture && e.pointerId === directPointer) {
    for (const c of e.getCoalescedEvents ? e.getCoalescedEvents() : [e]) {
      const p = ownPoint(e, c);
      move(mouseGesture, p);
      state.direct.events += 1; state.direct.last = p;
    }
  } else if (e.pointerType === "pen" && !mouseGesture) {
    // The pen hovering with an eraser picked: its outline (drawOverlay).
    const p = ownPoint(e, e);
    state.hover = { x: p.x, y: p.y, eraser: eraserEnd(e) };
    liveDirty = true;
  }
});
for (const type of ["pointerup", "pointercancel"]) {
  surface.addEventListener(type, (e) => {
    if (!mouseGesture || e.pointerId !== directPointer) return;
    const g = mouseGesture;
    mouseGesture = null; directPointer = null;
    state.direct.open = false;
    end(g, false);
  });
}

// --- the picker's buttons ---
function updateButtons() {
  $("undo").disabled = !drawing.canUndo; $("redo").disabled = !drawing.canRedo;
  $("delete").disabled = $("copy").disabled = !drawing.selection.size;
  $("paste").disabled = !drawing.clipboard;
}
$("undo").onclick = () => { drawing.undo(); updateButtons(); };
$("redo").onclick = () => { drawing.redo(); updateButtons(); };
$("delete").onclick = () => { drawing.deleteSelection(); updateButtons(); };
$("copy").onclick = () => { drawing.copySelection(); updateButtons(); };
$("paste").onclick = () => { drawing.paste(); updateButtons(); };
document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey)) { if (e.key === "Delete" || e.key === "Backspace") $("delete").click(); return; }
  const key = e.key.toLowerCase();
  if (key === "z") e.shiftKey ? drawing.redo() : drawing.undo();
  else if (key === "y") drawing.redo();
  else if (key === "c") drawing.copySelection();
  else if (key === "v") drawing.paste();
  else return;
  e.preventDefault();
  updateButtons();
});

// --- save, open, export: through PenKit on the server (one format, one SVG renderer); PNG from the canvas ---
async function post(path, body, type, query = "") {
  const response = await fetch(`${path}?token=${encodeURIComponent(token)}${query}`, { method: "POST", headers: { "Content-Type": type }, body });
  if (!response.ok) throw new Error((await response.text()).trim());
  return response;
}
function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}
async function attempt(what, work) {
  try { const result = await work(); status(`${what}: done`); return result; }
  catch (error) { status(`${what} failed: ${error.message}`); state.error = error.message; throw error; }
}
const save = () => attempt("save", async () => {
  const bytes = await (await post("/drawing/save", JSON.stringify(drawing.toJSON()), "application/json")).arrayBuffer();
  download(new Blob([bytes], { type: "application/vnd.penkit.drawing" }), "drawing.penkit");
  state.saved = { bytes: bytes.byteLength, strokes: drawing.strokes.length };
  return state.saved;
});
const open = (bytes) => attempt("open", async () => {
  drawing.load(await (await post("/drawing/open", bytes, "application/vnd.penkit.drawing")).json());
  updateButtons();
  return drawing.strokes.length;
});
// Both exports leave the background transparent when asked (markup over other content).
const exportSVG = (transparent = $("transparent").checked) => attempt("SVG", async () => {
  const svg = await (await post("/drawing/svg", JSON.stringify(drawing.toJSON()), "application/json", transparent ? "&background=none" : "")).text();
  download(new Blob([svg], { type: "image/svg+xml" }), "drawing.svg");
  return svg.length;
});
const exportPNG = (transparent = $("transparent").checked) => attempt("PNG", async () => {
  const out = new OffscreenCanvas(layers.ink.width, layers.ink.height), c = out.getContext("2d");
  if (!transparent) { c.fillStyle = "#ffffff"; c.fillRect(0, 0, out.width, out.height); }
  c.drawImage(layers.ink, 0, 0);
  const blob = await out.convertToBlob({ type: "image/png" });
  download(blob, "drawing.png");
  return blob.size;
});
$("save").onclick = () => save().catch(() => {});
$("export-svg").onclick = () => exportSVG().catch(() => {});
$("export-png").onclick = () => exportPNG().catch(() => {});
$("open").onchange = async (e) => {
  const file = e.target.files[0];
  if (file) await open(await file.arrayBuffer()).catch(() => {});
  e.target.value = "";
};

// --- drawing, once per display frame ---
function resize() {
  ratio = window.devicePixelRatio || 1;
  for (const c of Object.values(layers)) { c.width = Math.round(c.clientWidth * ratio); c.height = Math.round(c.clientHeight * ratio); }
  for (const c of Object.values(ctx)) c.setTransform(ratio, 0, 0, ratio, 0, 0);
  const canvas = new OffscreenCanvas(layers.ink.width, layers.ink.height);
  scratch = { canvas, ctx: canvas.getContext("2d") };
  pairing.surfaceWidth = layers.ink.clientWidth; pairing.surfaceHeight = layers.ink.clientHeight;
  state.drawnVersion = -1; liveDirty = true;
}
window.addEventListener("resize", resize);
resize();

function clear(c) { c.save(); c.setTransform(1, 0, 0, 1, 0, 0); c.clearRect(0, 0, c.canvas.width, c.canvas.height); c.restore(); }
function tick() {
  if (state.frozen) { requestAnimationFrame(tick); return; }
  if (state.drawnVersion !== drawing.version) {
    clear(ctx.ink);
    for (const s of drawing.strokes) drawStroke(ctx.ink, s, scratch, ratio);
    state.drawnVersion = drawing.version;
  }
  if (liveDirty || state.predicted) {
    clear(ctx.live);
    // Predicted ink continues the live stroke in its own ink (one stroke, so a translucent ink does
    // not darken where they meet); the next frame's real samples replace it.
    for (const [id, g] of gestures) {
      if (g.kind !== "ink") continue;
      const ahead = state.predicted && state.predicted.stroke === id ? state.predicted.points : [];
      drawStroke(ctx.live, { ink: g.ink, points: ahead.length ? [...g.points, ...ahead] : g.points, seed: 0 }, scratch, ratio);
    }
    if (mouseGesture && mouseGesture.kind === "ink") drawStroke(ctx.live, { ink: mouseGesture.ink, points: mouseGesture.points, seed: 0 }, scratch, ratio);
    liveDirty = false;
  }
  drawOverlay();
  if (state.freezing) state.frozen = state.freezing;
  requestAnimationFrame(tick);
}
function drawOverlay() {
  const o = ctx.overlay;
  clear(o);
  o.lineWidth = 1; o.strokeStyle = "#1e63d6"; o.setLineDash([5, 4]);
  for (const g of [...gestures.values(), mouseGesture]) {
    if (!g || g.kind !== "lasso" || g.points.length < 2) continue;
    o.beginPath(); o.moveTo(g.points[0].x, g.points[0].y);
    for (const p of g.points.slice(1)) o.lineTo(p.x, p.y);
    o.stroke();
  }
  const box = drawing.selection.size ? bounds(drawing.selected) : null;
  if (box) o.strokeRect(box.minX - 8, box.minY - 8, box.maxX - box.minX + 16, box.maxY - box.minY + 16);
  o.setLineDash([]);
  const h = state.hover;
  if (h) {
    const eraser = h.eraser || picker.isEraser;
    o.strokeStyle = "#777777";
    o.beginPath(); o.arc(h.x, h.y, eraser ? picker.eraserWidth() * PX_PER_MM / 2 : 3, 0, 2 * Math.PI); o.stroke();
  }
}
requestAnimationFrame(tick);
updateButtons();

window.penkitCanvas = { state, drawing, picker, pairing, gestures, receive, save, open, exportSVG, exportPNG, makeStroke };
