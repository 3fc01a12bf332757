"""penkit.messages against the examples of docs/protocol.schema.json, the fixture PenKit's Swift
readers and the view's JavaScript are checked against too: together the examples carry every field
the schema declares (scripts/check-protocol-schema.py --examples). Each server example reads as its
message with every field readable by its snake_case name and equal to the line's (or its typed
form); strokePart examples come back whole through the StrokeAssembler; the lines this client
writes are the schema's examples. Expected values are read from the schema."""
import json
import os
import re
import unittest

from penkit import messages
from penkit.client import status_request, subscribe_request
from penkit.messages import Tool, parse_message
from penkit.stroke_parts import StrokeAssembler

FIXTURES = os.environ.get("PENKIT_FIXTURES") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "Fixtures")
SCHEMA = os.path.join(FIXTURES, "..", "..", "docs", "protocol.schema.json")
# The flight recorder's answer is read by `penkit record`, not by this client.
NOT_READ_HERE = {"recording", "recording-events", "recording-digests", "recording-end"}


def snake(name):
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def examples():
    with open(SCHEMA) as f:
        schema = json.load(f)
    for ref in schema["oneOf"]:
        definition = schema["$defs"][ref["$ref"].split("/")[-1]]
        for example in definition["examples"]:
            yield definition["x-sender"], example


class ProtocolExampleTests(unittest.TestCase):
    def test_every_field_of_every_server_example_is_readable(self):
        read = set()
        for sender, example in examples():
            kind = example["type"]
            if sender != "server" or kind in NOT_READ_HERE or kind == "strokePart" or "parts" in example:
                continue
            with self.subTest(example=example):
                message = parse_message(example)
                read.add(kind)
                self.assertIs(message.raw, example)
                for key, value in example.items():
                    attribute = getattr(message, snake(key))
                    if isinstance(attribute, Tool):
                        value = Tool.of(value)
                    self.assertEqual(attribute, value, "%s.%s" % (kind, snake(key)))
        self.assertGreaterEqual(len(read), 17, read)

    def test_the_typed_fields_agree_with_the_line(self):
        """The fields a class renames or derives (``entering``, ``pressed``, an action's source)."""
        for sender, example in examples():
            if sender != "server" or example["type"] in NOT_READ_HERE:
                continue
            message = parse_message(example)
            kind = example["type"]
            if kind == "proximity":
                self.assertEqual(message.entering, example["state"] == "in")
            elif kind == "button":
                self.assertEqual(message.pressed, example["state"] == "pressed")
            elif kind == "error" and example["code"] == "overflow":
                self.assertIsInstance(message, messages.Overflow)
                self.assertEqual(message.last_sent_seq, example["lastSentSeq"])
            elif kind == "action":
                source = example["source"]
                self.assertEqual((message.trigger, message.kind), (source["trigger"], source["kind"]))
                for key in ("button", "number", "direction", "group", "mode"):
                    self.assertEqual(getattr(message, key), source.get(key), key)
                if "press" in source:
                    self.assertEqual(message.double, source["press"] == "double")
            elif kind == "pad":
                self.assertEqual(message.pressed, example["state"] == "pressed" if "state" in example else None)
                self.assertEqual(message.from_finger, example["source"] == "finger" if "source" in example else None)

    def test_stroke_parts_come_back_whole(self):
        parts = [e for s, e in examples() if e["type"] == "strokePart"]
        closing = next(e for s, e in examples() if e["type"] == "stroke" and "parts" in e)
        self.assertEqual(closing["parts"], len(parts))
        assembler = StrokeAssembler()
        for part in parts:
            self.assertIsNone(assembler.take(part))
        whole = parse_message(assembler.take(closing))
        self.assertIsInstance(whole, messages.Stroke)
        self.assertEqual(whole.stroke["points"], [p for part in parts for p in part.get("points", [])])
        self.assertEqual(whole.stroke["path"]["controlPoints"], [p for part in parts for p in part.get("controlPoints", [])])
        self.assertNotIn("parts", whole.raw)

    def test_the_lines_this_client_writes_are_the_schemas(self):
        written = {"status": status_request()}
        for sender, example in examples():
            if sender == "client" and example["type"] == "subscribe" and "channels" in example:
                made = subscribe_request(example["channels"], example.get("since"), example.get("strokeParts", False),
                                         example.get("predict"))
                self.assertEqual(made, example)
                written["subscribe"] = made
            elif sender == "client" and example["type"] == "status":
                self.assertEqual(written["status"], example)
        self.assertEqual(set(written), {"status", "subscribe"})


if __name__ == "__main__":
    unittest.main()
