// settings.js: the settings page (`/settings`, SettingsPage.swift). It reads penkitd's settings
// in force (POST /settings/state: penkitd's `status` answer) and the tablets' outlines and live
// frames (the page's WebSocket, as the canvas has them), and changes settings with penkitd's own
// `settings` request (POST /settings/change), which penkitd applies at once and keeps over its
// config file. Drags send their change when the pointer is released, not at every move.

const token = new URLSearchParams(location.search).get("token");
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CURVE_SIZE = 240, PAD = 12;
const ACTIONS = ["", "switchEraser", "switchPrevious", "showColorPalette", "showInkAttributes", "showContextualPalette", "ignore"];
// What a barrel button is on the virtual tablet (penkitd.conf's button-1…3); "" keeps it as pressed.
const BUTTON_ACTIONS = [["", "as pressed"], ["left", "left click"], ["middle", "middle click"], ["right", "right click"],
  ["eraser", "eraser while held"], ["none", "nothing"]];

// For the browser test and for a person at the console: what the page knows and did.
const state = { status: null, devices: {}, changes: [], lastAnswer: null, live: {}, error: null };
window.penkitSettings = { state, curveValue, bezierY, send, refresh };

function el(name, attrs = {}, parent = null, ns = null) {
  const e = ns ? document.createElementNS(ns, name) : document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) k === "text" ? (e.textContent = v) : e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}
const setting = (list, key) => (list || []).find((s) => s.key === key);
const hex4 = (n) => n.toString(16).padStart(4, "0");
// Frames name their tool (type and serial), not their tablet: a tool's test area is keyed by it.
const liveKey = (tool) => `${tool.type} ${tool.serial || 0}`;

/** The curve's control points from penkitd's value ("linear" or "X1, Y1, X2, Y2"). */
function curveValue(text) {
  if (!text || text === "linear") return [0, 0, 1, 1];
  const n = text.split(",").map(Number);
  return n.length === 4 && n.every(Number.isFinite) ? n : [0, 0, 1, 1];
}
/** y where the cubic Bézier (0,0)…(1,1) through the control points has x (penkit's PressureCurve). */
function bezierY(c, x) {
  const b = (t, p1, p2) => 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t;
  let lo = 0, hi = 1;
  for (let i = 0; i < 50; i++) { const m = (lo + hi) / 2; if (b(m, c[0], c[2]) < x) lo = m; else hi = m; }
  return b((lo + hi) / 2, c[1], c[3]);
}
/** The pressure that the curve shapes into `force` (its inverse, by bisection on x). */
function bezierX(c, force) {
  let lo = 0, hi = 1;
  for (let i = 0; i < 40; i++) { const m = (lo + hi) / 2; if (bezierY(c, m) < force) lo = m; else hi = m; }
  return (lo + hi) / 2;
}

async function post(path, body) {
  const response = await fetch(`${path}?token=${encodeURIComponent(token)}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  const text = await response.text();
  let answer;
  try { answer = JSON.parse(text); } catch { answer = { type: "error", code: String(response.status), message: text.trim() }; }
  return answer;
}

/** One change through penkitd's `settings` request; the answer is shown, and the state read again. */
async function send(section, key, value) {
  const change = { key };
  if (section) change.section = section;
  if (value !== null && value !== undefined) change.value = String(value);
  state.changes.push(change);
  const answer = await post("/settings/change", JSON.stringify({ type: "settings", version: 1, set: [change] }));
  state.lastAnswer = answer;
  $("settings-status").textContent = answer.type === "settings-saved"
    ? `saved in ${answer.file}; penkitd applies it now${answer.afterRestart.length ? ` (${answer.afterRestart.join(", ")}: after a restart)` : ""}`
    : `not changed: ${answer.message || answer.code}`;
  await refresh();
  return answer;
}

async function refresh() {
  const status = await post("/settings/state", "{}");
  if (status.type !== "status") { $("settings-status").textContent = status.message || "penkitd did not answer"; state.error = status; return; }
  state.status = status;
  render();
}

function render() {
  const main = $("tablets");
  main.replaceChildren();
  for (const device of state.status.devices) renderTablet(main, device);
  const vt = setting(state.status.settings, "virtual-tablet");
  $("virtual-tablet").checked = vt && vt.value === "true";
  $("virtual-tablet").onchange = (e) => send(null, "virtual-tablet", e.target.checked ? "true" : "false");
  const actions = $("actions");
  actions.replaceChildren(el("h3", { text: "Barrel buttons: the preferred action apps are asked to do" }));
  for (const [trigger, label] of [["stylus", "lower button"], ["stylus2", "upper button"], ["stylus3", "third button"]]) {
    const row = el("label", { text: `${label}: ` }, actions);
    const select = el("select", { "data-key": `action-${trigger}` }, row);
    const current = setting(state.status.settings, `action-${trigger}`);
    for (const a of ACTIONS) el("option", { value: a, text: a || "nothing" }, select);
    select.value = current ? current.value : "";
    select.onchange = () => send(null, `action-${trigger}`, select.value || null);
  }
  if (!state.lastAnswer) $("settings-status").textContent = `penkitd's settings in force, read at ${new Date().toLocaleTimeString()}`;
}

function renderTablet(main, device) {
  const info = state.devices[device.device] || {};
  const card = el("section", { class: "tablet", "data-device": device.device }, main);
  el("h2", { text: `${device.name}` }, card);
  const row = el("div", { class: "row" }, card);
  const section = info.vendor !== undefined ? `device ${hex4(info.vendor)}:${hex4(info.product)}` : `device ${device.name}`;
  renderArea(row, device, info, section);
  const side = el("div", {}, row);
  const rotation = el("select", { "data-key": "rotation" }, el("label", { text: "rotation " }, side));
  for (const r of ["0", "90", "180", "270"]) el("option", { value: r, text: `${r}°` }, rotation);
  rotation.value = (setting(device.settings, "rotation") || {}).value || "0";
  rotation.onchange = () => send(section, "rotation", rotation.value);
  const left = el("input", { type: "checkbox", "data-key": "left-handed" });
  el("label", { text: " left-handed" }, side).prepend(left);
  left.checked = (setting(device.settings, "left-handed") || {}).value === "true";
  left.onchange = () => send(section, "left-handed", left.checked ? "true" : "false");
  // This tablet through the virtual tablet (when it is on for penkitd): off leaves it to the compositor.
  const vt = el("input", { type: "checkbox", "data-key": "virtual-tablet" });
  el("label", { text: " through the virtual tablet", title: "when the virtual tablet is on; from the tablet's next plug-in or penkitd's start" }, side).prepend(vt);
  vt.checked = (setting(device.settings, "virtual-tablet") || {}).value !== "false";
  vt.onchange = () => send(section, "virtual-tablet", vt.checked ? null : "false");
  for (const s of device.settings) el("div", { class: "origin", text: `${s.key} = ${s.value} (${s.origin})` }, side);
  for (const tool of device.tools) renderTool(card, device, tool);
}

/** The tablet's outline in mm, the area drawn on it: drag to move, drag the corner to resize. */
function renderArea(row, device, info, section) {
  const w = info.width || 100, h = info.height || 60, scale = Math.min(320 / w, 200 / h);
  const svg = el("svg", { class: "outline", width: w * scale, height: h * scale, viewBox: `0 0 ${w} ${h}` }, row, SVG);
  const current = (setting(device.settings, "area") || {}).value || "";
  const n = current.split(",").map(Number);
  let a = n.length === 4 && n.every(Number.isFinite) ? { x: n[0], y: n[1], w: n[2], h: n[3] } : { x: 0, y: 0, w, h };
  const rect = el("rect", { class: "area" }, svg, SVG), grip = el("rect", { class: "grip", width: 6 / scale * 2, height: 6 / scale * 2 }, svg, SVG);
  const draw = () => {
    rect.setAttribute("x", a.x); rect.setAttribute("y", a.y); rect.setAttribute("width", a.w); rect.setAttribute("height", a.h);
    grip.setAttribute("x", a.x + a.w - 6 / scale); grip.setAttribute("y", a.y + a.h - 6 / scale);
  };
  draw();
  const mm = (e) => { const b = svg.getBoundingClientRect(); return { x: (e.clientX - b.left) / scale, y: (e.clientY - b.top) / scale }; };
  const drag = (target, move) => target.addEventListener("pointerdown", (down) => {
    target.setPointerCapture(down.pointerId);
    const start = mm(down), from = { ...a };
    const onMove = (e) => { const p = mm(e); a = move(from, p.x - start.x, p.y - start.y); draw(); };
    target.addEventListener("pointermove", onMove);
    target.addEventListener("pointerup", () => {
      target.removeEventListener("pointermove", onMove);
      send(section, "area", [a.x, a.y, a.w, a.h].map((v) => v.toFixed(1)).join(", "));
    }, { once: true });
  });
  const clampArea = (r) => ({ x: Math.max(0, Math.min(r.x, w - r.w)), y: Math.max(0, Math.min(r.y, h - r.h)), w: r.w, h: r.h });
  drag(rect, (f, dx, dy) => clampArea({ ...f, x: f.x + dx, y: f.y + dy }));
  drag(grip, (f, dx, dy) => ({ ...f, w: Math.max(5, Math.min(f.w + dx, w - f.x)), h: Math.max(5, Math.min(f.h + dy, h - f.y)) }));
}

/** One tool: its curve (control points dragged), the live test area, thresholds and ink. */
function renderTool(card, device, tool) {
  const section = tool.serial ? `tool serial 0x${tool.serial.toString(16)}` : `tool ${tool.type}`;
  const box = el("div", { class: "tool", "data-tool": tool.type }, card);
  el("h3", { text: `${tool.type}${tool.serial ? ` (serial 0x${tool.serial.toString(16)})` : ""}` }, box);
  const row = el("div", { class: "row" }, box);
  const c = curveValue((setting(tool.settings, "pressure-curve") || {}).value);
  const size = CURVE_SIZE, inner = size - 2 * PAD;
  const px = (x, y) => [PAD + x * inner, PAD + (1 - y) * inner];
  const svg = el("svg", { class: "curve", width: size, height: size, "data-curve": c.join(",") }, row, SVG);
  for (let i = 0; i <= 4; i++) {
    el("line", { class: "grid", x1: PAD, x2: size - PAD, y1: PAD + i * inner / 4, y2: PAD + i * inner / 4 }, svg, SVG);
    el("line", { class: "grid", y1: PAD, y2: size - PAD, x1: PAD + i * inner / 4, x2: PAD + i * inner / 4 }, svg, SVG);
  }
  el("line", { class: "diagonal", x1: PAD, y1: size - PAD, x2: size - PAD, y2: PAD }, svg, SVG);
  const path = el("path", { class: "path" }, svg, SVG);
  const arms = [el("line", { class: "arm" }, svg, SVG), el("line", { class: "arm" }, svg, SVG)];
  const handles = [el("circle", { class: "handle", r: 7, "data-handle": 1 }, svg, SVG), el("circle", { class: "handle", r: 7, "data-handle": 2 }, svg, SVG)];
  const live = el("circle", { class: "live", r: 5, visibility: "hidden" }, svg, SVG);
  const draw = () => {
    const [p0, p1, p2, p3] = [px(0, 0), px(c[0], c[1]), px(c[2], c[3]), px(1, 1)];
    path.setAttribute("d", `M${p0} C${p1} ${p2} ${p3}`);
    arms[0].setAttribute("x1", p0[0]); arms[0].setAttribute("y1", p0[1]); arms[0].setAttribute("x2", p1[0]); arms[0].setAttribute("y2", p1[1]);
    arms[1].setAttribute("x1", p3[0]); arms[1].setAttribute("y1", p3[1]); arms[1].setAttribute("x2", p2[0]); arms[1].setAttribute("y2", p2[1]);
    handles[0].setAttribute("cx", p1[0]); handles[0].setAttribute("cy", p1[1]);
    handles[1].setAttribute("cx", p2[0]); handles[1].setAttribute("cy", p2[1]);
  };
  draw();
  handles.forEach((handle, i) => handle.addEventListener("pointerdown", (down) => {
    handle.setPointerCapture(down.pointerId);
    const onMove = (e) => {
      const b = svg.getBoundingClientRect();
      c[2 * i] = Math.min(Math.max((e.clientX - b.left - PAD) / inner, 0), 1);
      c[2 * i + 1] = Math.min(Math.max(1 - (e.clientY - b.top - PAD) / inner, 0), 1);
      draw();
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", () => {
      handle.removeEventListener("pointermove", onMove);
      send(section, "pressure-curve", c.map((v) => v.toFixed(3)).join(", "));
    }, { once: true });
  }));
  // The test area: as the pen presses, its force now, shaped (blue) and the pressure it came from
  // through the curve (grey), and the point on the curve.
  const test = el("svg", { class: "test", width: 120, height: size }, row, SVG);
  const raw = el("rect", { class: "raw", x: 16, width: 36, y: size, height: 0 }, test, SVG);
  const shaped = el("rect", { class: "shaped", x: 68, width: 36, y: size, height: 0 }, test, SVG);
  el("text", { x: 16, y: 14, text: "raw" }, test, SVG); el("text", { x: 64, y: 14, text: "shaped" }, test, SVG);
  state.live[liveKey(tool)] = (force) => {
    const pressure = bezierX(c, force);
    raw.setAttribute("y", size - pressure * (size - 20)); raw.setAttribute("height", pressure * (size - 20));
    shaped.setAttribute("y", size - force * (size - 20)); shaped.setAttribute("height", force * (size - 20));
    const p = px(pressure, force);
    live.setAttribute("cx", p[0]); live.setAttribute("cy", p[1]); live.setAttribute("visibility", force > 0 ? "visible" : "hidden");
  };
  const side = el("div", {}, row);
  for (const key of ["tip-threshold", "hover-cutoff"]) {
    const current = setting(tool.settings, key) || { value: "" };
    const input = el("input", { type: "text", size: 8, "data-key": key, value: /^[0-9.]+$/.test(current.value) ? current.value : "" });
    el("label", { text: `${key} ` }, side).append(input);
    input.onchange = () => send(section, key, input.value || null);
  }
  // The barrel buttons (BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3) as the virtual tablet writes them.
  for (const n of [1, 2, 3]) {
    const current = setting(tool.settings, `button-${n}`);
    if (!current) continue;
    const select = el("select", { "data-key": `button-${n}` });
    for (const [value, text] of BUTTON_ACTIONS) el("option", { value, text }, select);
    select.value = BUTTON_ACTIONS.some(([value]) => value === current.value) ? current.value : "";
    el("label", { text: `button ${n} ` }, side).append(select);
    select.onchange = () => send(section, `button-${n}`, select.value || null);
  }
  const ink = setting(tool.settings, "ink");
  if (ink) {
    const input = el("input", { type: "text", size: 22, "data-key": "ink", value: ink.value });
    el("label", { text: "ink " }, side).append(input);
    input.onchange = () => send(null, tool.serial ? `ink-serial-0x${tool.serial.toString(16)}` : `ink-${tool.type}`, input.value || null);
  }
  for (const s of tool.settings) el("div", { class: "origin", text: `${s.key} = ${s.value} (${s.origin})` }, side);
}

let refreshing = false, lastRefresh = 0;
// The tablets' outlines and the live force come over the page's WebSocket, as on the canvas.
function listen() {
  const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onmessage = (event) => {
    for (const line of String(event.data).split("\n")) {
      if (!line) continue;
      let m; try { m = JSON.parse(line); } catch { continue; }
      if (m.type === "hello" || m.type === "subscribed") for (const d of m.devices || []) state.devices[d.id] = d;
      if (m.type === "device" && m.device) state.devices[m.device.id] = m.device;
      if (m.type === "frame" && m.sample) {
        const show = m.tool && state.live[liveKey(m.tool)];
        if (show) show(m.stroke !== undefined ? m.sample.force : 0);
        // A tool penkitd had not seen when the settings were read: read them again to show it (at
        // most once a second: a tool status never lists must not turn frames into requests).
        else if (m.tool && !refreshing && performance.now() - lastRefresh > 1000) {
          refreshing = true;
          lastRefresh = performance.now();
          refresh().finally(() => { refreshing = false; });
        }
      }
    }
  };
}

listen();
refresh();
