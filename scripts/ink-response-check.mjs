// The canvas's inks (Sources/PenView/Resources/canvas-inks.js) against PenKit's ink response: the
// table `penkit ink-response` prints from the Swift code (InkResponse.swift, Ink+Nib.swift, Ink.swift)
// over a grid of force, altitude, azimuth and speed. Every width and opacity the canvas's live ink
// uses must be PenKit's, and so must each ink's default width, width range and chisel nib.
// Runs in node (`node scripts/ink-response-check.mjs PENKIT_BINARY`) and, through
// `checkInkResponse`, in the canvas page of the browser test (the module the page itself loaded).
export function checkInkResponse(table, inks) {
  const { appearance, PX_PER_MM, INKS, NIBS } = inks;
  const problems = [], tolerance = 1e-9;
  const off = (got, want) => !(Math.abs(got - want) <= tolerance * Math.max(1, Math.abs(want)));
  for (const [type, swift] of Object.entries(table.inks)) {
    const js = INKS[type];
    if (!js) { problems.push(`${type}: not an ink of the canvas`); continue; }
    if (off(js.width, swift.defaultWidth)) problems.push(`${type}: default width ${js.width} mm, PenKit's ${swift.defaultWidth}`);
    if (off(js.range[0], swift.range[0]) || off(js.range[1], swift.range[1])) problems.push(`${type}: widths ${js.range}, PenKit's ${swift.range}`);
    const nib = NIBS[type] || { aspect: 1, angle: 0 };
    if (off(nib.aspect, swift.nibAspect) || off(nib.angle, swift.nibAngle)) {
      problems.push(`${type}: nib aspect ${nib.aspect} at ${nib.angle} rad, PenKit's ${swift.nibAspect} at ${swift.nibAngle}`);
    }
  }
  for (const type of Object.keys(INKS)) if (!table.inks[type]) problems.push(`${type}: not in PenKit's table`);
  let checked = 0;
  for (const c of table.cases) {
    const look = appearance({ type: c.ink, width: c.width, alpha: c.alpha, color: "#000000" },
                            { force: c.force, altitude: c.altitude, azimuth: c.azimuth }, c.speed);
    checked += 1;
    const size = look.size / PX_PER_MM;
    if (off(size, c.size) || off(look.opacity, c.opacity)) {
      problems.push(`${c.ink} w ${c.width} α ${c.alpha} at force ${c.force}, altitude ${c.altitude}, azimuth ${c.azimuth}, ${c.speed} mm/s: `
                    + `size ${size} mm, opacity ${look.opacity}; PenKit ${c.size} mm, ${c.opacity}`);
    }
  }
  return { checked, problems };
}

// node: the table from the penkit binary named on the command line, the module from the sources.
if (typeof process !== "undefined" && process.argv && import.meta.url === `file://${process.argv[1]}`) {
  const { execFileSync } = await import("node:child_process");
  const penkit = process.argv[2];
  if (!penkit) { console.error("usage: node scripts/ink-response-check.mjs PENKIT_BINARY"); process.exit(2); }
  const table = JSON.parse(execFileSync(penkit, ["ink-response"], { maxBuffer: 64 << 20 }).toString());
  // The module reads its ink table from the page's server; here, from the same binary.
  globalThis.PENKIT_INK_TABLE = table.inks;
  const inks = await import(new URL("../Sources/PenView/Resources/canvas-inks.js", import.meta.url).href);
  const { checked, problems } = checkInkResponse(table, inks);
  console.log(`ink response: ${checked} cases of ${Object.keys(table.inks).length} inks against PenKit's, ${problems.length} differ`);
  for (const p of problems.slice(0, 20)) console.log("  " + p);
  process.exit(problems.length ? 1 : 0);
}
