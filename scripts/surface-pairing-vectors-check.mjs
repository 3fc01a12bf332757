// The shared SurfacePairing vectors (Tests/Fixtures/surface-pairing/vectors.json) through the
// browser module (Sources/PenView/Resources/penkit-surface.js), with the checks the Swift and
// Python tests make. Runs in node (`node scripts/surface-pairing-vectors-check.mjs`) and, through
// `checkVectors`, in the page of the browser test.
export function checkVectors(vectors, SurfacePairing) {
  const problems = [], summary = [];
  const tol = vectors.tolerance;
  const applyM = (m, x, y) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  for (const c of vectors.cases) {
    const pairing = new SurfacePairing({ surfaceWidth: c.window.width, surfaceHeight: c.window.height });
    const truth = new Map(Object.entries(c.truth).map(([d, segs]) => [Number(d), segs]));
    const truthAt = (device, t) => { let m = truth.get(device)[0].transform; for (const s of truth.get(device)) if (s.from <= t) m = s.transform; return m; };
    const originals = new Map(), last = new Map(), frames = [], noticed = new Set();
    let readyAfter = null, appEvents = 0;
    const collect = (list) => {
      for (const d of list) {
        if (d.type === "map") { if (d.change === "ready" && readyAfter === null) readyAfter = appEvents; if (d.change !== "ready") noticed.add(d.device); }
        else if (d.type === "frame") {
          const moves = truth.get(d.device).slice(1).map((s) => s.from);
          frames.push({ d, original: originals.get(`${d.device}:${d.sample.t}`), stale: moves.some((m) => d.sample.t >= m) && !noticed.has(d.device) });
        }
      }
    };
    for (const input of c.inputs) {
      if (input.frame) {
        const f = input.frame;
        originals.set(`${f.device}:${f.sample.t}`, f);
        if (!last.has(f.device)) last.set(f.device, []);
        last.get(f.device).push([f.sample.x, f.sample.y]);
        collect(pairing.handleMessage(f));
      } else {
        appEvents += 1;
        const a = input.app;
        collect(pairing.handleAppEvent({ time: a.t_ms, x: a.x, y: a.y, proximity: a.proximity, source: a.source }));
      }
    }
    collect(pairing.finish());
    const fail = (text) => problems.push(`${c.name}: ${text}`);
    summary.push(`${c.name}: ready after ${readyAfter ?? "never"}, ${frames.length} frames delivered`);
    if (!c.expectReady) { if (frames.length) fail(`${frames.length} frames delivered though no map can be told`); continue; }
    if (readyAfter === null) fail("never ready");
    if (frames.filter((f) => f.stale).length > 3) fail("frames placed by a map from before the move");
    const allowed = new Set(c.allowed.map(([d, t]) => `${d}:${t}`));
    for (const { d, original, stale } of frames) {
      if (stale) continue;
      if (!allowed.has(`${d.device}:${d.sample.t}`)) fail(`frame ${d.sample.t} delivered while the pen was elsewhere`);
      const m = truthAt(d.device, d.sample.t);
      const [x, y] = applyM(m, original.sample.x, original.sample.y);
      if (Math.hypot(x - d.sample.x, y - d.sample.y) > tol) fail(`frame ${d.sample.t} misplaced`);
      if (original.predicted?.length && d.predicted?.length) {
        const p = original.predicted[original.predicted.length - 1], q = d.predicted[d.predicted.length - 1];
        const [px, py] = applyM(m, p.x, p.y);
        if (Math.hypot(px - q.x, py - q.y) > tol) fail(`prediction of ${d.sample.t} misplaced`);
      }
      if (original.expectedError !== undefined) {
        const want = original.expectedError * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
        if (Math.abs(d.expectedError - want) > 1e-3 * want) fail(`expectedError of ${d.sample.t} not scaled`);
      }
    }
    for (const [device, segs] of truth) {
      const e = pairing.estimate(device);
      if (!e) { fail(`device ${device}: no map at the end`); continue; }
      const want = segs[segs.length - 1].transform;
      for (const [x, y] of last.get(device).slice(-50)) {
        const u = applyM(e.transform, x, y), v = applyM(want, x, y);
        if (Math.hypot(u[0] - v[0], u[1] - v[1]) > tol) { fail(`device ${device}: final map off`); break; }
      }
    }
    if (c.agreed) {
      if (readyAfter !== c.agreed.readyAfter) fail(`ready after ${readyAfter}, Swift after ${c.agreed.readyAfter}`);
      if (frames.length !== c.agreed.deliveredFrames) fail(`${frames.length} frames delivered, Swift ${c.agreed.deliveredFrames}`);
    }
  }
  return { problems, summary };
}

// node: read the files beside this script and report.
if (typeof process !== "undefined" && process.argv && import.meta.url === `file://${process.argv[1]}`) {
  const fs = await import("node:fs");
  const root = new URL("..", import.meta.url).pathname;
  const { SurfacePairing } = await import(root + "Sources/PenView/Resources/penkit-surface.js");
  const vectors = JSON.parse(fs.readFileSync(root + "Tests/Fixtures/surface-pairing/vectors.json", "utf8"));
  const { problems, summary } = checkVectors(vectors, SurfacePairing);
  for (const line of summary) console.log("surface-pairing vector (js) " + line);
  for (const p of problems) console.error("FAIL " + p);
  process.exit(problems.length ? 1 : 0);
}
