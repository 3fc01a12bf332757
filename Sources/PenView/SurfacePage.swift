/// The surface page, `/surface`: an app that draws with penkit in its own window. It pairs its own
/// pen PointerEvents with penkit's frames (penkit-surface.js, docs/apps.md) and draws penkit's
/// live and predicted ink where its own pen is, in page coordinates. The strip at the right
/// stands for another window: a pen over it is not over this surface.
/// `{{TOKEN}}` is replaced with the server's token when the server starts.
enum SurfacePageHTML {
    static let text = PageHead.html(title: "penkit view: drawing in this window", stylesheet: "view.css", script: "surface.js") + #"""
<body class="surface-page">
<canvas id="surface-ink"></canvas><canvas id="surface-overlay"></canvas>
<aside id="elsewhere"><h1>another window</h1><p id="surface-status">connecting…</p>
<p>Draw with the pen on the white area: penkit's ink (blue), its prediction (magenta) and each finalized
stroke (black) appear under the pen, placed by the map this page learns from its own pen events.</p></aside>
</body>
</html>
"""#
}

/// The surface page's script, an ES module: penkit's feed over the WebSocket and the page's own
/// pen PointerEvents into one SurfacePairing; what it delivers, drawn once per display frame.
/// `window.penkitSurface` exposes the state for the browser test.
enum SurfacePageScript {
    static let text = #"""
const token = new URLSearchParams(location.search).get("token") || "";
const { SurfacePairing } = await import(`./penkit-surface.js?token=${encodeURIComponent(token)}`);
const ink = document.getElementById("surface-ink"), overlay = document.getElementById("surface-overlay");
const inkCtx = ink.getContext("2d"), overCtx = overlay.getContext("2d");
const status = (text) => { document.getElementById("surface-status").textContent = text; };

const pairing = new SurfacePairing({ surfaceWidth: ink.clientWidth, surfaceHeight: ink.clientHeight });
const state = {
  ready: false, map: null, clockOffset: null, appEvents: 0, frames: 0, received: 0, ended: false,
  // The browser test freezes the drawing at the first contact frame with predictions from
  // freezeAtTime (µs, penkit's clock) on, to look at it; thaw() goes on.
  freezeAtTime: null, freezing: null, frozen: null, drawnFinalized: 0,
  live: new Map(),      // stroke id → [[x, y]] delivered contact samples, page px
  finalized: [],        // [{ id, points: [[x, y]] }]
  predicted: null,      // { from: [x, y], points: [[x, y]] } of the newest contact frame, or null
  hover: null,          // [x, y] of the newest hover frame here
  pen: null,            // the page's own newest pen position, [x, y]
  here: false,          // the page's own pen is over this surface
};
window.penkitSurface = state;
state.pairing = pairing;  // for the browser test's questions
state.thaw = () => {
  state.freezeAtTime = null; state.freezing = null; state.frozen = null;
  take(backlog.splice(0, backlog.length));
};

function resize() {
  const ratio = window.devicePixelRatio || 1;
  for (const c of [ink, overlay]) { c.width = Math.round(c.clientWidth * ratio); c.height = Math.round(c.clientHeight * ratio); }
  for (const ctx of [inkCtx, overCtx]) ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  pairing.surfaceWidth = ink.clientWidth;
  pairing.surfaceHeight = ink.clientHeight;
  redraw = true;
}
let redraw = true;
window.addEventListener("resize", resize);
resize();

const backlog = [];
function take(deliveries) {
  for (const d of deliveries) {
    // While frozen the picture the test looks at stays as it was drawn; the rest waits.
    if (state.freezing) { backlog.push(d); continue; }
    switch (d.type) {
      case "map":
        state.ready = d.ready; state.map = d.transform; state.clockOffset = d.clockOffset;
        status(d.ready ? `map ${d.change} after ${d.appEvents} pen events` : "learning where this window is…");
        break;
      case "frame": {
        state.frames += 1;
        const p = [d.sample.x, d.sample.y];
        if (d.stroke !== undefined && d.stroke !== null) {
          if (!state.live.has(d.stroke)) state.live.set(d.stroke, []);
          state.live.get(d.stroke).push(p);
          state.predicted = { from: p, points: (d.predicted || []).map((s) => [s.x, s.y]) };
          state.hover = null;
          if (state.freezeAtTime !== null && d.sample.t >= state.freezeAtTime && state.predicted.points.length) {
            state.freezing = { t: d.sample.t, from: p, points: state.predicted.points, expectedError: d.expectedError ?? null };
          }
        } else { state.hover = p; state.predicted = null; }
        break;
      }
      case "ended": state.predicted = null; break;
      case "stroke":
        state.finalized.push({ id: d.stroke.id, points: d.stroke.points.map((s) => [s.x, s.y]) });
        state.live.delete(d.stroke.id);
        redraw = true;
        break;
    }
  }
}

const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
ws.onopen = () => status("connected: bring the pen over this page");
ws.onmessage = (event) => {
  for (const line of event.data.split("\n")) {
    if (!line) continue;
    let m;
    try { m = JSON.parse(line); } catch { continue; }
    // The feed ends; the page's own pen may still be catching up with it, so nothing is settled here.
    if (m.type === "end") { state.ended = true; continue; }
    if (m.type === "frame") state.received += 1;
    take(pairing.handleMessage(m));
  }
};

// The page's own pen: every report the browser kept (getCoalescedEvents), proximity from enter/leave.
function own(e, proximity) {
  if (e.pointerType !== "pen") return;
  const box = ink.getBoundingClientRect();
  const events = proximity === "move" && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const c of events.length ? events : [e]) {
    const x = c.clientX - box.left, y = c.clientY - box.top;
    // A pen over another window is not this surface's, even when the browser still targets it.
    if (proximity !== "out" && (x < 0 || y < 0 || x > box.width || y > box.height)) continue;
    state.appEvents += 1;
    state.pen = [x, y];
    take(pairing.handleAppEvent({ time: c.timeStamp, x: state.pen[0], y: state.pen[1], proximity, source: String(e.pointerId) }));
  }
}
ink.addEventListener("pointerenter", (e) => { state.here = e.pointerType === "pen" || state.here; own(e, "in"); });
for (const type of ["pointermove", "pointerdown", "pointerup"]) ink.addEventListener(type, (e) => own(e, "move"));
ink.addEventListener("pointerleave", (e) => { if (e.pointerType === "pen") state.here = false; own(e, "out"); });

function line(ctx, points, color, width) {
  if (points.length < 2) return;
  ctx.strokeStyle = color; ctx.lineWidth = width; ctx.lineCap = "round"; ctx.lineJoin = "round";
  ctx.beginPath(); ctx.moveTo(points[0][0], points[0][1]);
  for (const p of points.slice(1)) ctx.lineTo(p[0], p[1]);
  ctx.stroke();
}

function tick() {
  if (state.frozen) { requestAnimationFrame(tick); return; }
  if (redraw) {
    inkCtx.clearRect(0, 0, ink.clientWidth, ink.clientHeight);
    for (const s of state.finalized) line(inkCtx, s.points, "#000000", 2);
    redraw = false;
    state.drawnFinalized = state.finalized.length;
  }
  // Every segment delivered since the last display frame (catching up, the pairing delivers several at once).
  for (const points of state.live.values()) {
    const from = Math.max((points.drawn || 1) - 1, 0);
    line(inkCtx, points.slice(from), "#1e63d6", 2);
    points.drawn = points.length;
  }
  overCtx.clearRect(0, 0, overlay.clientWidth, overlay.clientHeight);
  if (state.predicted && state.predicted.points.length) line(overCtx, [state.predicted.from, ...state.predicted.points], "#e0109a", 3);
  if (state.freezing) state.frozen = state.freezing;
  if (state.hover) { overCtx.fillStyle = "#13a538"; overCtx.beginPath(); overCtx.arc(state.hover[0], state.hover[1], 4, 0, 2 * Math.PI); overCtx.fill(); }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
"""#
}
