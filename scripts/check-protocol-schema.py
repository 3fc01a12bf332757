#!/usr/bin/env python3
"""Validates protocol lines (JSON, one per line, from a file or stdin) against
docs/protocol.schema.json with a real JSON Schema validator (Debian's python3-jsonschema).

Besides the schema: the schema lets readers ignore unknown keys, but the docs must still name
every key sent, so "--strict" also reports properties a line carries that the schema does not
declare for its message type (in every object whose properties the schema lists), by path.
Prints one summary line per message type; exit 1 on any invalid line."""
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


def main():
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
