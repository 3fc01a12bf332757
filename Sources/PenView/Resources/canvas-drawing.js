// canvas-drawing.js: the canvas's drawing (PencilKit's PKDrawing as the canvas edits it), in page
// px: strokes, undo and redo, the two erasers, the lasso's selection, moving, deleting, copying and
// pasting it, and the JSON the server turns into a `.penkit` file or SVG (CanvasDrawingJSON.swift).
//
// Strokes are frozen values and every change makes a new array of them, so an undo step is simply
// the array as it was (strokes that did not change are shared, as PenKit's Drawing shares them).

// Imported with this module's own query (the server's token), which a static import cannot carry.
const { inkSpec, inkFromSpec, appearance } = await import("./canvas-inks.js" + new URL(import.meta.url).search);

let nextKey = 1;
const UNDO_LIMIT = 200;

/** A stroke: { key, ink, points: [{x, y, t, force, altitude, azimuth, roll}], seed }, frozen. */
export function makeStroke(ink, points, seed) {
  const key = nextKey++;
  return Object.freeze({ key, ink: Object.freeze({ ...ink }), points: Object.freeze(points.map((p) => Object.freeze({ ...p }))),
                         seed: seed ?? (key * 2654435761) >>> 0 });
}

// --- geometry, page px ---
function distanceToSegment(p, a, b) {
  const dx = b.x - a.x, dy = b.y - a.y, len = dx * dx + dy * dy;
  const k = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len));
  return Math.hypot(p.x - a.x - k * dx, p.y - a.y - k * dy);
}
function segmentsDistance(a, b, c, d) {
  const cross = (o, p, q) => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  const d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  return Math.min(distanceToSegment(a, c, d), distanceToSegment(b, c, d), distanceToSegment(c, a, b), distanceToSegment(d, a, b));
}
export function insidePolygon(p, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i], b = polygon[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}
export function bounds(strokes) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const s of strokes) for (const p of s.points) {
    minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
  }
  return minX <= maxX ? { minX, minY, maxX, maxY } : null;
}
// How far a point's ink reaches from its centre line: half its drawn size (a chisel's whole nib
// length counts, whichever way it points), so an eraser that keeps clear of it leaves no ink behind.
const reachOf = (ink, p) => appearance(ink, p, 0).size / 2;

// Points at most `step` px apart, every property blended, so that a cut falls where the eraser's edge is.
function densified(points, step) {
  const out = [points[0]];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i], n = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / step);
    for (let k = 1; k < n; k++) {
      const u = k / n, p = {};
      for (const key of Object.keys(b)) p[key] = typeof a[key] === "number" && typeof b[key] === "number" ? a[key] + (b[key] - a[key]) * u : b[key];
      out.push(p);
    }
    out.push(b);
  }
  return out;
}

export class CanvasDrawing {
  constructor() {
    this.strokes = Object.freeze([]);
    this.undoStack = []; this.redoStack = [];
    this.selection = new Set();   // keys of selected strokes
    this.clipboard = null;        // [stroke] copied
    this.version = 0;             // bumped on every change, for the renderer
    this.open = null;             // the change in progress (a gesture that edits live): the strokes before it
  }

  _set(strokes) {
    this.strokes = Object.freeze(strokes);
    const keys = new Set(strokes.map((s) => s.key));
    for (const k of [...this.selection]) if (!keys.has(k)) this.selection.delete(k);
    this.version += 1;
  }
  _record(before) {
    this.undoStack.push(before);
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
    this.redoStack = [];
  }
  /** A change made in one step (adding a stroke, deleting, pasting, opening a file). */
  change(strokes) {
    if (this.open) this.end();
    this._record(this.strokes);
    this._set(strokes);
  }
  /** A change made live over a gesture (erasing, moving): one undo step from begin() to end(). */
  begin() { if (!this.open) this.open = { before: this.strokes }; }
  end() {
    if (!this.open) return false;
    const { before } = this.open;
    this.open = null;
    if (before === this.strokes) return false;
    this._record(before);
    return true;
  }
  get canUndo() { return this.undoStack.length > 0; }
  get canRedo() { return this.redoStack.length > 0; }
  undo() {
    this.end();
    if (!this.undoStack.length) return false;
    this.redoStack.push(this.strokes);
    this._set(this.undoStack.pop());
    return true;
  }
  redo() {
    this.end();
    if (!this.redoStack.length) return false;
    this.undoStack.push(this.strokes);
    this._set(this.redoStack.pop());
    return true;
  }

  add(stroke) { this.change([...this.strokes, stroke]); }

  /** The object eraser from a to b (page px, radius px): every stroke it touches goes. */
  eraseObjects(a, b, radius) {
    const kept = this.strokes.filter((s) => {
      const ps = s.points;
      if (ps.length === 1) return distanceToSegment(ps[0], a, b) > radius + reachOf(s.ink, ps[0]);
      for (let i = 1; i < ps.length; i++) {
        const reach = radius + Math.max(reachOf(s.ink, ps[i - 1]), reachOf(s.ink, ps[i]));
        if (segmentsDistance(ps[i - 1], ps[i], a, b) <= reach) return false;
      }
      return true;
    });
    if (kept.length !== this.strokes.length) { this.begin(); this._set(kept); return true; }
    return false;
  }

  /**
   * The pixel eraser from a to b: what it passes over is cut out of every stroke, which falls into
   * the pieces left (new strokes, as PencilKit splits them). A point goes when its ink would reach
   * into the eraser: within radius + its half width of the eraser's path.
   */
  erasePixels(a, b, radius) {
    let changed = false;
    const out = [];
    for (const s of this.strokes) {
      const widest = Math.max(...s.points.map((p) => reachOf(s.ink, p)));
      const near = s.points.some((p, i) => distanceToSegment(p, a, b) <= radius + widest + 2
        || (i > 0 && segmentsDistance(s.points[i - 1], p, a, b) <= radius + widest));
      if (!near) { out.push(s); continue; }
      const pieces = [[]];
      for (const p of densified(s.points, 1)) {
        if (distanceToSegment(p, a, b) <= radius + reachOf(s.ink, p)) { if (pieces[pieces.length - 1].length) pieces.push([]); }
        else pieces[pieces.length - 1].push(p);
      }
      const kept = pieces.filter((piece) => piece.length >= 2);
      if (kept.length === 1 && kept[0].length === s.points.length) { out.push(s); continue; }
      changed = true;
      for (const piece of kept) out.push(makeStroke(s.ink, piece, s.seed));
    }
    if (changed) { this.begin(); this._set(out); }
    return changed;
  }

  /** The lasso: strokes with at least half their points inside the closed path are selected. */
  select(lasso) {
    this.selection = new Set();
    if (lasso.length >= 3) {
      for (const s of this.strokes) {
        const inside = s.points.filter((p) => insidePolygon(p, lasso)).length;
        if (inside * 2 >= s.points.length) this.selection.add(s.key);
      }
    }
    this.version += 1;
    return this.selection.size;
  }
  deselect() { if (this.selection.size) { this.selection = new Set(); this.version += 1; } }
  get selected() { return this.strokes.filter((s) => this.selection.has(s.key)); }
  selectionBounds() { return bounds(this.selected); }

  /** Moves the selection by (dx, dy) px, live (inside begin/end: one undo step per drag). */
  moveSelection(dx, dy) {
    if (!this.selection.size || (dx === 0 && dy === 0)) return;
    this.begin();
    const moved = new Set();
    const strokes = this.strokes.map((s) => {
      if (!this.selection.has(s.key)) return s;
      const copy = makeStroke(s.ink, s.points.map((p) => ({ ...p, x: p.x + dx, y: p.y + dy })), s.seed);
      moved.add(copy.key);
      return copy;
    });
    this._set(strokes);
    this.selection = moved;
  }
  deleteSelection() {
    if (!this.selection.size) return false;
    this.change(this.strokes.filter((s) => !this.selection.has(s.key)));
    return true;
  }
  copySelection() {
    if (!this.selection.size) return false;
    this.clipboard = this.selected;
    return true;
  }
  /** Pastes the copied strokes 20 px down and right of where they were, and selects them. */
  paste() {
    if (!this.clipboard) return false;
    const pasted = this.clipboard.map((s) => makeStroke(s.ink, s.points.map((p) => ({ ...p, x: p.x + 20, y: p.y + 20 })), s.seed));
    this.clipboard = pasted;
    this.change([...this.strokes, ...pasted]);
    this.selection = new Set(pasted.map((s) => s.key));
    return true;
  }

  /** The body of a save or SVG export (CanvasDrawingJSON): inks by name, points in px. */
  toJSON() {
    return { unit: "px", strokes: this.strokes.map((s) => ({
      ink: inkSpec(s.ink),
      points: s.points.map((p) => {
        const q = { x: p.x, y: p.y };
        for (const k of ["t", "force", "altitude", "azimuth", "roll"]) if (Number.isFinite(p[k])) q[k] = p[k];
        return q;
      }),
    })) };
  }
  /** Replaces the drawing with one the server read from a file (one undo step). */
  load(json) {
    this.change((json.strokes || []).map((s) => makeStroke(inkFromSpec(s.ink), s.points)));
  }
}
