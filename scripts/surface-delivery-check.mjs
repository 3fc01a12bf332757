// What penkit-surface.js hands a page besides frames and maps, on a real trace: `penkit replay
// --json --late-pressure 150` of traces/wacom-dth2242-pen.evemu, with the page's own pen events made
// from its frames (×15 and an offset, on a clock of their own) and arriving LAG ms after penkit's
// messages, as when the page's pen runs behind penkit's feed. Checks, for every stroke delivered
// to the page:
// - its `ended` comes after every frame of it that the page gets, and before its `stroke`;
// - every `update` penkit sent for it reaches the page, including those that came before the
//   pairing's map was ready (the first stroke's) or before the page's pen reached the stroke;
// and every stroke some of whose frames reached the page gets its finalized `stroke` too.
// Runs in node (`node scripts/surface-delivery-check.mjs PENKIT_BINARY`) and, through
// `checkDelivery`, in the /surface page of the browser test.
export function checkDelivery(lines, SurfacePairing, lagMs, enterAt = 0) {
  const messages = lines.map((l) => JSON.parse(l)).filter((m) => ["frame", "began", "update", "ended", "stroke"].includes(m.type));
  const frames = messages.filter((m) => m.type === "frame");
  const place = (x, y) => [15 * x - 3500, 15 * y - 1500];
  const clock = 5e6;   // the page's clock, ms, against penkit's µs / 1000
  // Each penkit message arrives at the time of the newest frame before it; each frame's pen event
  // lagMs later. One ordered stream of both.
  const stream = [];
  let now = frames[0].sample.t / 1000;
  for (const m of messages) {
    if (m.type === "frame") now = m.sample.t / 1000;
    stream.push({ at: now, order: stream.length, message: m });
  }
  frames.forEach((f, i) => {
    if (i < enterAt) return;   // the pen over another window until then
    const [x, y] = place(f.sample.x, f.sample.y);
    stream.push({ at: f.sample.t / 1000 + lagMs, order: stream.length,
                  app: { time: f.sample.t / 1000 + clock, x, y, proximity: i === enterAt ? "in" : "move", source: "1" } });
  });
  stream.sort((a, b) => a.at - b.at || a.order - b.order);
  const pairing = new SurfacePairing({});
  const out = [];
  for (const s of stream) out.push(...(s.app ? pairing.handleAppEvent(s.app) : pairing.handleMessage(s.message)));
  const last = frames[frames.length - 1];
  out.push(...pairing.handleAppEvent({ time: last.sample.t / 1000 + clock + 1, x: 0, y: 0, proximity: "out", source: "1" }));
  out.push(...pairing.finish());

  const problems = [], summary = [];
  const sent = new Map();
  for (const m of messages) if (m.type === "update" && m.stroke != null) sent.set(m.stroke, (sent.get(m.stroke) || 0) + 1);
  const readyAt = out.findIndex((d) => d.type === "map" && d.ready);
  const strokes = out.filter((d) => d.type === "stroke").map((d) => d.stroke.id);
  if (!strokes.length) problems.push("no stroke reached the page");
  for (const id of new Set(out.filter((d) => d.type === "frame" && d.stroke != null).map((d) => d.stroke))) {
    if (!strokes.includes(id)) problems.push(`stroke ${id}: frames reached the page, its finalized stroke never`);
  }
  let early = 0;
  for (const id of strokes) {
    const at = (pred) => out.map((d, i) => (pred(d) ? i : -1)).filter((i) => i >= 0);
    const frameAt = at((d) => d.type === "frame" && d.stroke === id), endedAt = at((d) => d.type === "ended" && d.stroke === id);
    const strokeAt = at((d) => d.type === "stroke" && d.stroke.id === id)[0];
    const updates = at((d) => d.type === "update" && d.stroke === id);
    const beforeReady = messages.filter((m) => m.type === "update" && m.stroke === id).length && readyAt > 0
      ? out.slice(0, Math.max(frameAt[0] ?? 0, 0)).filter((d) => d.type === "update").length : 0;
    early += beforeReady;
    summary.push(`stroke ${id}: ${frameAt.length} frames, ended ${endedAt.length ? "after " + frameAt.filter((i) => i < endedAt[0]).length : "never"}, `
                 + `${updates.length} of ${sent.get(id) || 0} updates`);
    if (endedAt.length !== 1) { problems.push(`stroke ${id}: ${endedAt.length} ended deliveries`); continue; }
    if (frameAt.some((i) => i > endedAt[0])) problems.push(`stroke ${id}: ended before ${frameAt.filter((i) => i > endedAt[0]).length} of its frames`);
    if (!(endedAt[0] < strokeAt)) problems.push(`stroke ${id}: ended after its stroke`);
    if (updates.length !== (sent.get(id) || 0)) problems.push(`stroke ${id}: ${updates.length} of ${sent.get(id) || 0} updates reached the page`);
  }
  return { problems, summary, strokes: strokes.length };
}

// The page's pen's lag behind penkit's feed (ms) and the report it enters the page at: 40 is the
// first stroke's first, so that the map is learned during that stroke, after penkit sent its
// `ended` and some of its updates.
export const SCENARIOS = [[20, 0], [300, 0], [20, 40], [160, 40]];

// node: penkit's replay from the binary named on the command line, the module from the sources.
if (typeof process !== "undefined" && process.argv && import.meta.url === `file://${process.argv[1]}`) {
  const { execFileSync } = await import("node:child_process");
  const penkit = process.argv[2];
  if (!penkit) { console.error("usage: node scripts/surface-delivery-check.mjs PENKIT_BINARY"); process.exit(2); }
  const root = new URL("..", import.meta.url).pathname;
  const lines = execFileSync(penkit, ["replay", "--json", "--late-pressure", "150", "traces/wacom-dth2242-pen.evemu"], { cwd: root, maxBuffer: 64 << 20 })
    .toString().split("\n").filter(Boolean);
  const { SurfacePairing } = await import(new URL("../Sources/PenView/Resources/penkit-surface.js", import.meta.url).href);
  let failed = false;
  for (const [lag, enterAt] of SCENARIOS) {
    const { problems, summary, strokes } = checkDelivery(lines, SurfacePairing, lag, enterAt);
    console.log(`surface delivery, the page's pen ${lag} ms behind from report ${enterAt} on: ${strokes} strokes here, ${problems.length} problems`);
    for (const line of summary) console.log("  " + line);
    for (const p of problems.slice(0, 10)) console.log("  problem: " + p);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
