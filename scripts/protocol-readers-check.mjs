// The view's JavaScript readers of penkitd's messages against docs/protocol.schema.json (its
// examples carry every field the schema declares; scripts/check-protocol-schema.py --examples):
// - every message type view.js, canvas.js and penkit-surface.js dispatch on is a type the schema
//   declares as sent by penkitd, or one of `penkit view`'s own (the types its Swift writers in
//   Sources/PenkitCLI/View write) or SurfacePairing's own deliveries (`map`);
// - penkit-surface.js's SurfacePairing takes every server example of the schema, in order,
//   without throwing, and reads no field of a message that the schema does not declare for it
//   (each example is wrapped in a Proxy that records what is read).
// These readers are generic over the rest: they pass the parsed JSON on and read what they show,
// so a field or a type the schema gains needs no change here. Run: node scripts/protocol-readers-check.mjs
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const schema = JSON.parse(readFileSync(join(root, "docs/protocol.schema.json"), "utf8"));
const resources = join(root, "Sources/PenView/Resources");
const problems = [];

const definitions = schema.oneOf.map((ref) => schema.$defs[ref.$ref.split("/").pop()]);
const serverTypes = new Set(definitions.filter((d) => d["x-sender"] === "server").map((d) => d.properties.type.const));

// Every property name a definition declares, at any depth (through $ref, oneOf/anyOf/allOf, items).
function declaredNames(node, out = new Set(), seen = new Set()) {
  if (!node || typeof node !== "object") return out;
  if (node.$ref) {
    const name = node.$ref.split("/").pop();
    if (seen.has(name)) return out;
    seen.add(name);
    return declaredNames(schema.$defs[name], out, seen);
  }
  for (const key of ["oneOf", "anyOf", "allOf"]) for (const b of node[key] || []) declaredNames(b, out, seen);
  for (const [name, child] of Object.entries(node.properties || {})) { out.add(name); declaredNames(child, out, seen); }
  for (const name of node.required || []) out.add(name);
  if (node.items && typeof node.items === "object") declaredNames(node.items, out, seen);
  return out;
}
const declaredByType = new Map();
for (const d of definitions.filter((d) => d["x-sender"] === "server")) {
  const type = d.properties.type.const;
  declaredByType.set(type, declaredNames(d, declaredByType.get(type) || new Set()));
}

// `penkit view`'s own message types, as its Swift writers write them.
const viewSources = join(root, "Sources/PenkitCLI/View");
const viewTypes = new Set();
for (const file of readdirSync(viewSources).filter((f) => f.endsWith(".swift"))) {
  for (const m of readFileSync(join(viewSources, file), "utf8").matchAll(/w\.field\("type", plain: "([a-z-]+)"\)/g)) viewTypes.add(m[1]);
}
const surfaceText = readFileSync(join(resources, "penkit-surface.js"), "utf8");
const pairingTypes = new Set([...surfaceText.matchAll(/type: "([a-z]+)"/g)].map((m) => m[1]));

// The types each reader dispatches on: `switch (x.type) { case "…" }` and `x.type === "…"`.
function dispatched(text) {
  const found = new Set();
  for (const start of text.matchAll(/switch \((\w+)\.type\) \{/g)) {
    let depth = 0, i = start.index + start[0].length - 1;
    const from = i;
    for (; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) break;
    }
    // Only the switch's own level: nested switches are over other things.
    let level = 0, body = "";
    for (const ch of text.slice(from + 1, i)) {
      if (ch === "{") level++;
      if (level === 0) body += ch;
      if (ch === "}") level--;
    }
    for (const c of body.matchAll(/case "([A-Za-z-]+)":/g)) found.add(c[1]);
  }
  for (const m of text.matchAll(/\b(?:m|message|d)\.type === "([A-Za-z-]+)"/g)) found.add(m[1]);
  return found;
}
for (const file of ["view.js", "canvas.js", "penkit-surface.js"]) {
  const types = dispatched(readFileSync(join(resources, file), "utf8"));
  if (types.size === 0) problems.push(`${file}: no message types found (has its dispatch changed shape?)`);
  for (const type of types) {
    if (!serverTypes.has(type) && !viewTypes.has(type) && !pairingTypes.has(type)) {
      problems.push(`${file} reads a message type "${type}" that neither the schema nor penkit view sends`);
    }
  }
  console.log(`${file}: reads ${[...types].sort().join(", ")}`);
}

// SurfacePairing on every server example, through Proxies that note each field read.
const { SurfacePairing } = await import(pathToFileURL(join(resources, "penkit-surface.js")).href);
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));
function watched(value, type, path) {
  if (!value || typeof value !== "object") return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key === "string" && !Array.isArray(target) && !inherited.has(key) && !declaredByType.get(type).has(key)) {
        problems.push(`penkit-surface.js reads ${path}${key} of a ${type} message, which the schema does not declare`);
      }
      return watched(Reflect.get(target, key, receiver), type, `${path}${key}.`);
    },
  });
}
const pairing = new SurfacePairing({ surfaceWidth: 1000, surfaceHeight: 800 });
let fed = 0;
for (const d of definitions.filter((d) => d["x-sender"] === "server")) {
  for (const example of d.examples) {
    try {
      pairing.handleMessage(watched(structuredClone(example), example.type, ""));
      fed++;
    } catch (error) {
      problems.push(`penkit-surface.js throws on a ${example.type} example: ${error}`);
    }
  }
}
try { pairing.finish(); } catch (error) { problems.push(`penkit-surface.js throws at finish: ${error}`); }
console.log(`penkit-surface.js: took ${fed} server examples of ${serverTypes.size} types`);
for (const p of problems) console.log(p);
process.exit(problems.length ? 1 : 0);
