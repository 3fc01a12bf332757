#!/usr/bin/env python3
"""Validates protocol lines (JSON, one per line, from a file or stdin) against
docs/protocol.schema.json with a real JSON Schema validator (Debian's python3-jsonschema).

Besides the schema: the schema lets readers ignore unknown keys, but the docs must still name
every key sent, so "--strict" also reports properties a line carries that the schema does not
declare for its message type (in every object whose properties the schema lists), by path.
Prints one summary line per message type; exit 1 on any invalid line.

"--examples" checks the schema's own examples instead, the fixture every reader's test reads
(Tests/PenKitTests/ProtocolExampleTests.swift, clients/python/tests/test_protocol_examples.py,
scripts/protocol-readers-check.mjs): every message of the top-level oneOf says who sends it
("x-sender": "server" or "client") and has examples, each valid and declared as above, and
together they carry every property the schema declares for it, at every depth. So a field or a
type added to the schema without an example fails here, and one with an example fails each
reader that drops it."""
import json
import sys
from pathlib import Path

import jsonschema

root = Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs/protocol.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema)
resolver_store = schema["$defs"]


def resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        node = resolver_store[node["$ref"].split("/")[-1]]
    return node


def declared(node, value, path, undeclared):
    """Reports keys of `value` no branch of `node` declares (properties, through $ref/oneOf/anyOf/allOf/items)."""
    node = resolve(node)
    if not isinstance(node, dict):
        return
    branches = [resolve(b) for k in ("oneOf", "anyOf", "allOf") for b in node.get(k, [])]
    if isinstance(value, dict):
        props = dict(node.get("properties", {}))
        for b in branches:
            if isinstance(b, dict):
                props.update(b.get("properties", {}))
        # An object the schema leaves opaque ({"type": "object"}, no properties) is not checked.
        if props:
            for key, item in value.items():
                if key not in props and not node.get("additionalProperties") and "patternProperties" not in node:
                    undeclared.add(path + key)
                elif key in props:
                    declared(props[key], item, path + key + ".", undeclared)
    elif isinstance(value, list) and "items" in node:
        for item in value:
            declared(node["items"], item, path + "[].", undeclared)


def schema_paths(node, path, out, depth=0):
    """Every property path (`devices[].pad.modes`) a message's definition declares."""
    node = resolve(node)
    if not isinstance(node, dict) or depth > 12:
        return
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(key, []):
            schema_paths(branch, path, out, depth + 1)
    for name, child in node.get("properties", {}).items():
        if path == "" and name == "type":
            continue
        out.add(path + name)
        schema_paths(child, path + name + ".", out, depth + 1)
    if isinstance(node.get("items"), dict):
        schema_paths(node["items"], path.rstrip(".") + "[].", out, depth + 1)


def value_paths(value, path, out):
    if isinstance(value, dict):
        for name, item in value.items():
            out.add(path + name)
            value_paths(item, path + name + ".", out)
    elif isinstance(value, list):
        for item in value:
            value_paths(item, path.rstrip(".") + "[].", out)


def check_examples():
    problems = []
    names = [ref["$ref"].split("/")[-1] for ref in schema["oneOf"]]
    for name in names:
        definition = resolver_store[name]
        examples = definition.get("examples", [])
        if definition.get("x-sender") not in ("server", "client"):
            problems.append(f"{name}: no x-sender (server or client)")
        if not examples:
            problems.append(f"{name}: no examples")
        declared_paths, carried, undeclared = set(), set(), set()
        schema_paths(definition, "", declared_paths)
        wire_type = definition["properties"]["type"]["const"]
        for example in examples:
            if example.get("type") != wire_type:
                problems.append(f"{name}: an example of type {example.get('type')!r}, not {wire_type!r}")
            errors = list(validator.iter_errors(example))
            if errors:
                best = jsonschema.exceptions.best_match(errors)
                problems.append(f"{name}: an example is invalid: {best.message[:200]} at {list(best.absolute_path)}")
            value_paths(example, "", carried)
            declared(definition, example, "", undeclared)
        for path in sorted(undeclared):
            problems.append(f"{name}: an example carries {path}, which the schema does not declare")
        for path in sorted(declared_paths - carried - {"type"}):
            problems.append(f"{name}: no example carries {path}")
        print(f"{name} ({wire_type}, {definition.get('x-sender')}): {len(examples)} examples, {len(declared_paths)} properties")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def main():
    if "--examples" in sys.argv[1:]:
        return check_examples()
    args = [a for a in sys.argv[1:] if a != "--strict"]
    strict = "--strict" in sys.argv[1:]
    text = Path(args[0]).read_text() if args else sys.stdin.read()
    counts, failures, undeclared = {}, [], {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type", "?")
        counts[kind] = counts.get(kind, 0) + 1
        errors = list(validator.iter_errors(message))
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            failures.append(f"line {number} ({kind}): {best.message} at {list(best.absolute_path)}")
        if strict:
            definition = resolver_store.get(kind)
            if definition is not None:
                declared(definition, message, "", undeclared.setdefault(kind, set()))
    for kind in sorted(counts):
        extra = sorted(undeclared.get(kind, ()))
        print(f"{kind}: {counts[kind]} lines" + (f", undeclared: {', '.join(extra)}" if extra else ""))
    for failure in failures[:20]:
        print(failure)
    bad = failures or any(undeclared.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
