// canvas-picker.js: the tool picker (PencilKit's PKToolPicker) of the canvas: the seven inks, each
// with its own colour, opacity and width; the object and pixel erasers, each with its width; the
// lasso. It also does what penkitd's `action` messages ask, as PencilKit does for the pen's
// preferred actions: switchEraser, switchPrevious, showColorPalette, showInkAttributes.
// Read at a glance, as PKToolPicker is: each ink is a sample stroke drawn in that ink (by the
// canvas's own drawStroke, in the ink's colour and opacity), the colours are swatches always in
// view, and the width is a dot of that size.

const { INKS, INK_NAMES, PX_PER_MM, drawStroke } = await import("./canvas-inks.js" + new URL(import.meta.url).search);

export const ERASERS = Object.freeze({
  objectEraser: { width: 6, range: [0.5, 50] },
  pixelEraser: { width: 6, range: [0.5, 50] },
});
export const TOOL_NAMES = Object.freeze([...INK_NAMES, "objectEraser", "pixelEraser", "lasso"]);
const LABELS = { fountainPen: "fountain pen", objectEraser: "object eraser", pixelEraser: "pixel eraser" };
/** The sample's width at most (mm): a marker's 8 mm would fill its button; the dot shows the real width. */
const SAMPLE_WIDTH_MAX = 1.6;
/** The width dot's diameter at most (CSS px): its well is 44 px. */
const DOT_MAX = 40;

/** An S-shaped stroke across a `w` × `h` CSS-px sample, pressing harder in its middle, at 120 Hz. */
function samplePoints(w, h) {
  const points = [], n = 40;
  for (let i = 0; i <= n; i++) {
    const u = i / n;
    points.push({ x: 8 + u * (w - 16), y: h / 2 - Math.sin(u * 2 * Math.PI) * h * 0.22, t: i * 8333,
                  force: 0.25 + 0.65 * Math.sin(u * Math.PI), altitude: 0.9, azimuth: 0.8 });
  }
  return points;
}

export class ToolPicker {
  /** `root`: the picker's element; `changed(picker)` is called after every change. */
  constructor(root, changed = () => {}) {
    this.root = root; this.changed = changed;
    this.settings = {};
    for (const name of INK_NAMES) this.settings[name] = { color: INKS[name].color, alpha: INKS[name].alpha, width: INKS[name].width };
    for (const name of Object.keys(ERASERS)) this.settings[name] = { width: ERASERS[name].width };
    this.tool = "pen";
    this.previous = "pen";
    // The eraser switchEraser and the pen's eraser end use: the one last picked (PencilKit's default, the object eraser, first).
    this.eraser = "objectEraser";
    this.actions = [];  // every action applied, newest last (for the status line and the browser test)
    if (root) this._wire();
    this._show();
  }

  get isInk() { return INK_NAMES.includes(this.tool); }
  get isEraser() { return this.tool in ERASERS; }
  /** The picked ink: { type, color, alpha, width (mm) }, or null when the tool is not an ink. */
  get ink() { return this.isInk ? { type: this.tool, ...this.settings[this.tool] } : null; }
  eraserWidth(kind = this.eraser) { return this.settings[kind].width; }

  select(tool) {
    if (!TOOL_NAMES.includes(tool)) throw new Error(`no tool ${tool}`);
    if (tool !== this.tool) { this.previous = this.tool; this.tool = tool; }
    if (tool in ERASERS) this.eraser = tool;
    this._show();
  }
  setColor(hex) { if (this.isInk) { this.settings[this.tool].color = hex.toLowerCase(); this._show(); } }
  setAlpha(alpha) { if (this.isInk) { this.settings[this.tool].alpha = Math.min(Math.max(alpha, 0.05), 1); this._show(); } }
  setWidth(mm) {
    const range = (INKS[this.tool] || ERASERS[this.tool] || {}).range;
    if (!range) return;
    this.settings[this.tool].width = Math.min(Math.max(mm, range[0]), range[1]);
    this._show();
  }

  /** One of penkitd's `action` messages; true when it was one the picker acts on. */
  action(name) {
    switch (name) {
      case "switchEraser":
        // The eraser, or back to the tool before it when the eraser is already picked.
        if (this.isEraser) this.select(this.previous in ERASERS ? "pen" : this.previous); else this.select(this.eraser);
        break;
      case "switchPrevious": this.select(this.previous); break;
      case "showColorPalette": this._open("palette"); break;
      case "showInkAttributes": this._open("attributes"); break;
      default: return false;
    }
    this.actions.push(name);
    this._show();
    return true;
  }

  _open(what) {
    if (!this.root) return;
    // The swatches are always in view: the palette is focused. The attributes (width, opacity) open.
    if (what !== "palette") this.root.querySelector("#attributes").open = true;
    const target = what === "palette" ? this.root.querySelector("#palette button") : this.root.querySelector("#width");
    if (target) target.focus();
  }

  /** Each ink's sample stroke, in its own colour, opacity and (capped) width. */
  _drawSamples() {
    const ratio = globalThis.devicePixelRatio || 1;
    for (const b of this.root.querySelectorAll(".ink-button")) {
      const canvas = b.querySelector("canvas"), type = b.dataset.tool, s = this.settings[type];
      const w = canvas.clientWidth || 100, h = canvas.clientHeight || 30;
      const key = [w, h, ratio, s.color, s.alpha, s.width].join(" ");
      if (canvas.dataset.drawn === key) continue;
      canvas.dataset.drawn = key;
      canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
      const ctx = canvas.getContext("2d");
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      const scratchCanvas = new OffscreenCanvas(canvas.width, canvas.height);
      const ink = { type, color: s.color, alpha: s.alpha, width: Math.min(s.width, SAMPLE_WIDTH_MAX) };
      drawStroke(ctx, { ink, points: samplePoints(w, h), seed: 7 }, { canvas: scratchCanvas, ctx: scratchCanvas.getContext("2d") }, ratio);
    }
  }

  /** The width as a dot of that size on the canvas (an ink's in its colour, an eraser's grey). */
  _showWidth(s) {
    const dot = this.root.querySelector("#width-dot");
    const d = s && s.width !== undefined ? Math.min(Math.max(s.width * PX_PER_MM, 1), DOT_MAX) : 0;
    dot.style.width = dot.style.height = `${d}px`;
    dot.style.background = this.isInk ? s.color : "#8a8f99";
    dot.style.opacity = this.isInk ? s.alpha : 1;
  }

  _wire() {
    for (const b of this.root.querySelectorAll("[data-tool]")) b.addEventListener("click", () => this.select(b.dataset.tool));
    for (const b of this.root.querySelectorAll("[data-color]")) {
      b.style.setProperty("--c", b.dataset.color);
      b.addEventListener("click", () => this.setColor(b.dataset.color));
    }
    this.root.querySelector("#color").addEventListener("input", (e) => this.setColor(e.target.value));
    this.root.querySelector("#opacity").addEventListener("input", (e) => this.setAlpha(Number(e.target.value)));
    this.root.querySelector("#width").addEventListener("input", (e) => this.setWidth(Number(e.target.value)));
  }

  _show() {
    if (this.root) {
      for (const b of this.root.querySelectorAll("[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === this.tool));
      const s = this.settings[this.tool], range = (INKS[this.tool] || ERASERS[this.tool] || { range: [0, 0] }).range;
      const width = this.root.querySelector("#width");
      width.min = range[0]; width.max = range[1]; width.value = s ? s.width ?? "" : "";
      width.disabled = !s;
      this.root.querySelector("#width-value").textContent = s && s.width !== undefined ? `${s.width} mm` : "–";
      this.root.querySelector("#color").disabled = !this.isInk;
      // An eraser or the lasso has no colour: the swatches stay in view, greyed.
      for (const b of this.root.querySelectorAll("[data-color]")) b.disabled = !this.isInk;
      this.root.querySelector("#opacity").disabled = !this.isInk;
      if (this.isInk) {
        this.root.querySelector("#color").value = s.color;
        this.root.querySelector("#opacity").value = s.alpha;
        for (const b of this.root.querySelectorAll("[data-color]")) b.setAttribute("aria-pressed", String(b.dataset.color === s.color));
      }
      this.root.querySelector("#tool-name").textContent = LABELS[this.tool] || this.tool;
      this._showWidth(s);
      this._drawSamples();
    }
    this.changed(this);
  }
}
