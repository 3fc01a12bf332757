// canvas-inks.js: the canvas's inks in canvas 2D, in the spirit of PencilKit's. Each ink turns a
// point's force, altitude, speed and the stroke's direction into a width and an opacity with
// PenKit's own formulas and numbers (Sources/PenKit/Stroke/InkResponse.swift, InkDefinition.swift; the stroke
// model is the truth, so live ink looks as the saved drawing will): `appearance` is checked
// against `penkit ink-response` by scripts/ink-response-check.mjs. `drawStroke` draws a stroke of
// page-px points with them.
//
// How a stroke is drawn, and why:
// - Each stroke is drawn alone on a scratch canvas, segment by segment, then composited once. On
//   the scratch, each segment first clears its own area and then fills it with its own opacity, so
//   where segments overlap (every join) the opacity is the newer segment's, never the sum: a
//   translucent ink shows no beads at its joins.
// - Marker and watercolor multiply onto what is under them (a highlighter over text keeps the text
//   readable, and strokes of one colour darken where they cross); the others paint over.
// - Marker and fountain pen have a chisel nib: each segment sweeps the nib (a short line at
//   PenKit's fixed angle, `NIBS`) with PenKit's thickness along it, so the drawn width follows the
//   stroke's direction against the nib.
// - Pencil and crayon have grain: a fixed noise texture, seeded per stroke, rubbed out of the stroke.

export const PX_PER_MM = 96 / 25.4;

// PenKit's ink table (Sources/PenKit/Stroke/InkDefinition.swift), as `penkit view` serves it at
// /inks.json: each ink's default width and valid range in mm (a width outside it would be clamped
// when saved), its nib, how its size and opacity follow the pen, and the colour a new picker
// starts it with. A page of another origin (node's check) sets globalThis.PENKIT_INK_TABLE first.
const TABLE = globalThis.PENKIT_INK_TABLE
  ?? await (await fetch(new URL("./inks.json" + new URL(import.meta.url).search, import.meta.url))).json();
const DRAWN = Object.entries(TABLE).filter(([type]) => type !== "eraser");
// The eraser erases: drawn (a live preview), it is a plain line of its width.
const RULES = Object.fromEntries(DRAWN);

export const INKS = Object.freeze(Object.fromEntries(DRAWN.map(([type, d]) =>
  [type, Object.freeze({ width: d.defaultWidth, range: d.range, color: d.canvasColor, alpha: 1 })])));
// The chisel nibs: thickness along the nib's axis as a fraction of its length, and the axis's
// angle from the page's x axis towards y, turned by each point's barrel roll as PenKit's
// StrokeOutline turns it (the width follows the stroke's direction and the roll, not the pen's
// azimuth).
export const NIBS = Object.freeze(Object.fromEntries(DRAWN.filter(([, d]) => d.nibAspect !== 1)
  .map(([type, d]) => [type, Object.freeze({ aspect: d.nibAspect, angle: d.nibAngle })])));
export const INK_NAMES = Object.freeze(Object.keys(INKS));

const clamp01 = (v) => (Number.isFinite(v) ? Math.min(Math.max(v, 0), 1) : 0);
const tiltOf = (altitude) => clamp01(1 - (altitude ?? Math.PI / 2) / (Math.PI / 2));

/**
 * Width (px across a round nib, or the chisel's length along its axis) and opacity of point p at
 * `speed` mm/s: PenKit's `Ink.size` and `Ink.opacity` (InkResponse.swift), term for term.
 */
export function appearance(ink, p, speed) {
  const w = ink.width * PX_PER_MM, f = clamp01(p.force ?? 0.5), a = clamp01(ink.alpha ?? 1), tilt = tiltOf(p.altitude);
  const v = Math.max(Number.isFinite(speed) ? speed : 0, 0);
  const rule = RULES[ink.type];
  if (!rule) return { size: w, opacity: a };
  const { size: s, opacity: o } = rule;
  const sized = w * (s.base + s.force * f) * (1 + s.tilt * tilt);
  const shown = a * Math.min(1, o.base + o.force * f);
  return { size: s.speedScale > 0 ? sized / (1 + v / s.speedScale) : sized,
           opacity: o.fadeSpeed > 0 ? shown * (1 - Math.min(v / o.fadeSpeed, o.fadeCap)) : shown };
}

// Inks PenKit multiplies onto what is below (a highlighter); the canvas multiplies watercolour too, for its wash.
const MULTIPLY = new Set([...DRAWN.filter(([, d]) => d.multiply).map(([type]) => type), "watercolor"]);
const GRAIN = { pencil: 0.45, crayon: 0.35 };

/** mm/s at point i from its neighbours (page px, t in µs), as PenKit's stroke assembly measures it. */
function speedAt(points, i) {
  if (points.length < 2) return 0;
  const a = points[Math.max(i - 1, 0)], b = points[Math.min(i + 1, points.length - 1)];
  const dt = ((b.t ?? 0) - (a.t ?? 0)) / 1e6;
  return dt > 0 ? Math.hypot(b.x - a.x, b.y - a.y) / PX_PER_MM / dt : 0;
}

function spaced(points, step) {
  const out = [];
  for (const p of points) if (!out.length || Math.hypot(p.x - out[out.length - 1].x, p.y - out[out.length - 1].y) >= step) out.push(p);
  if (points.length > 1 && out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1]);
  return out;
}

/** The bounding box (page px) of a stroke's ink, generous enough for any nib. */
export function inkBounds(stroke) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of stroke.points) {
    minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
  }
  const reach = stroke.ink.width * PX_PER_MM * 4 + 4;
  return { minX: minX - reach, minY: minY - reach, maxX: maxX + reach, maxY: maxY + reach };
}

function rgba(hex, opacity) {
  const n = parseInt(hex.slice(1, 7), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${opacity})`;
}

let grainTile = null;
function grain(scratchCtx, seed) {
  if (!grainTile) {
    // A fixed tile of specks (its own small generator, so every page draws the same grain).
    grainTile = new OffscreenCanvas(64, 64);
    const g = grainTile.getContext("2d"), image = g.createImageData(64, 64);
    let s = 0x2545f491;
    for (let i = 0; i < 64 * 64; i++) {
      s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
      image.data[4 * i + 3] = (s >>> 0) % 100 < 38 ? 255 : 0;
    }
    g.putImageData(image, 0, 0);
  }
  const pattern = scratchCtx.createPattern(grainTile, "repeat");
  pattern.setTransform(new DOMMatrix().translateSelf(seed % 64, (seed >> 6) % 64));
  return pattern;
}

function segmentShape(ctx, ink, a, b, sa, sb) {
  ctx.beginPath();
  if (NIBS[ink.type]) {
    // The nib swept from a to b: a parallelogram (just the nib for a lone point), and along its
    // middle a line of the nib's thickness, which is all that shows where the pen moves along the
    // nib. (Nib lines at each point would stick out of the outline as teeth.)
    // The nib's axis: the ink's angle turned by the pen's barrel roll (0 without a rotation axis).
    const nib = NIBS[ink.type];
    const half = (p, size) => { const t = nib.angle + (p.roll || 0); return [Math.cos(t) * size / 2, Math.sin(t) * size / 2]; };
    const [ax, ay] = half(a, sa), [bx, by] = half(b, sb);
    const thick = Math.max(1, Math.min(sa, sb) * nib.aspect);
    if (a === b) {
      ctx.lineWidth = thick; ctx.lineCap = "butt";
      ctx.moveTo(a.x - ax, a.y - ay); ctx.lineTo(a.x + ax, a.y + ay); ctx.stroke();
      return;
    }
    ctx.moveTo(a.x - ax, a.y - ay); ctx.lineTo(a.x + ax, a.y + ay);
    ctx.lineTo(b.x + bx, b.y + by); ctx.lineTo(b.x - bx, b.y - by); ctx.closePath();
    ctx.fill();
    ctx.lineWidth = thick; ctx.lineCap = "round";
    ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y); ctx.stroke();
    return;
  }
  ctx.lineWidth = Math.max((sa + sb) / 2, 0.5); ctx.lineCap = "round";
  ctx.moveTo(a.x, a.y); ctx.lineTo(b.x === a.x && b.y === a.y ? b.x + 0.01 : b.x, b.y);
  ctx.stroke();
}

/**
 * Draws `stroke` ({ ink: {type, color, alpha, width}, points: [{x, y, t, force, altitude, azimuth}] },
 * page px) onto `ctx` through `scratch` (an object holding an OffscreenCanvas `canvas` and its `ctx`,
 * the size of the target in device px). `ratio` is device px per CSS px.
 */
export function drawStroke(ctx, stroke, scratch, ratio = 1) {
  const ink = stroke.ink;
  // A chisel's swept nib between two points less than a pixel apart is a sliver that antialiasing
  // only half covers, and many of them shade the stroke unevenly: its points are thinned to 1.5 px.
  const points = NIBS[ink.type] ? spaced(stroke.points, 1.5) : stroke.points;
  if (!points.length) return;
  const box = inkBounds(stroke);
  const x0 = Math.max(Math.floor(box.minX * ratio), 0), y0 = Math.max(Math.floor(box.minY * ratio), 0);
  const x1 = Math.min(Math.ceil(box.maxX * ratio), scratch.canvas.width), y1 = Math.min(Math.ceil(box.maxY * ratio), scratch.canvas.height);
  if (x1 <= x0 || y1 <= y0) return;
  const s = scratch.ctx;
  s.setTransform(1, 0, 0, 1, 0, 0);
  s.globalCompositeOperation = "source-over";
  s.clearRect(x0, y0, x1 - x0, y1 - y0);
  s.setTransform(ratio, 0, 0, ratio, 0, 0);
  const look = points.map((p, i) => appearance(ink, p, speedAt(points, i)));
  const pairs = points.length === 1 ? [[0, 0]] : points.slice(1).map((_, i) => [i, i + 1]);
  const opacities = look.map((l) => l.opacity);
  // One opacity for the whole stroke (pen, marker, monoline, fountain pen): drawn opaque, then
  // composited at that opacity, so that no seam between segments shows. Otherwise each segment
  // takes its own opacity, clearing its area first (see the top of this file).
  const uniform = Math.max(...opacities) - Math.min(...opacities) < 0.01;
  for (const [i, j] of pairs) {
    if (!uniform) {
      s.globalCompositeOperation = "destination-out";
      s.fillStyle = s.strokeStyle = "#000";
      segmentShape(s, ink, points[i], points[j], look[i].size, look[j].size);
    }
    s.globalCompositeOperation = "source-over";
    s.fillStyle = s.strokeStyle = rgba(ink.color, uniform ? 1 : (look[i].opacity + look[j].opacity) / 2);
    segmentShape(s, ink, points[i], points[j], look[i].size, look[j].size);
  }
  if (GRAIN[ink.type]) {
    s.setTransform(1, 0, 0, 1, 0, 0);
    s.globalCompositeOperation = "destination-out";
    s.globalAlpha = GRAIN[ink.type];
    s.fillStyle = grain(s, stroke.seed ?? 0);
    s.fillRect(x0, y0, x1 - x0, y1 - y0);
    s.globalAlpha = 1;
  }
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = MULTIPLY.has(ink.type) ? "multiply" : "source-over";
  if (uniform) ctx.globalAlpha = opacities[0];
  if (ink.type === "watercolor") ctx.filter = `blur(${1.5 * ratio}px)`;
  ctx.drawImage(scratch.canvas, x0, y0, x1 - x0, y1 - y0, x0, y0, x1 - x0, y1 - y0);
  ctx.restore();
}

/** The ink as PenKit's `Ink(spec:)` reads it: "TYPE #RRGGBBAA WIDTH". */
export function inkSpec(ink) {
  const alpha = Math.round(clamp01(ink.alpha ?? 1) * 255).toString(16).padStart(2, "0");
  return `${ink.type} ${ink.color.toLowerCase()}${alpha} ${Number(ink.width.toFixed(3))}`;
}

/** The ink of a spec the server sent back ("pen #000000ff 1.0"); unknown types are kept by name. */
export function inkFromSpec(spec) {
  const [type, color = "#000000ff", width] = String(spec).trim().split(/\s+/);
  const hex = color.startsWith("#") ? color : "#" + color;
  return { type, color: hex.slice(0, 7), alpha: hex.length >= 9 ? parseInt(hex.slice(7, 9), 16) / 255 : 1,
           width: Number(width) || (INKS[type] ? INKS[type].width : 1) };
}
