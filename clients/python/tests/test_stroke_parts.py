"""penkit.stroke_parts against Tests/Fixtures/stroke-parts: the lines a real penkitd sent one client
that took strokes in parts and one that did not, from the same replay (the fixture's README)."""
import copy
import json
import os
import socket
import tempfile
import threading
import unittest

from penkit.client import PenkitClient
from tests.one_connection_server import OneConnectionServer
from penkit.stroke_parts import StrokeAssembler, StrokePartsError, join_all

FIXTURES = os.environ.get("PENKIT_FIXTURES") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "Fixtures")


def lines(name):
    with open(os.path.join(FIXTURES, "stroke-parts", name), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class StrokePartsTests(unittest.TestCase):
    def setUp(self):
        self.whole = lines("whole.jsonl")
        self.parts = lines("parts.jsonl")

    def test_the_fixture_has_strokes_in_parts(self):
        self.assertGreater(sum(1 for m in self.parts if m["type"] == "strokePart"), len(self.whole))
        self.assertTrue(all("parts" not in m for m in self.whole))

    def test_parts_put_together_are_the_whole_strokes_field_for_field(self):
        self.assertEqual(join_all(self.parts), self.whole)

    def test_other_messages_pass_through(self):
        assembler = StrokeAssembler()
        frame = {"type": "frame", "device": 1}
        self.assertIs(assembler.take(frame), frame)

    def test_a_part_out_of_order_is_refused(self):
        first = next(i for i, m in enumerate(self.parts) if m["type"] == "strokePart")
        swapped = copy.deepcopy(self.parts)
        swapped[first + 1], swapped[first + 2] = swapped[first + 2], swapped[first + 1]
        with self.assertRaisesRegex(StrokePartsError, "was due"):
            join_all(swapped)

    def test_a_missing_first_part_is_refused(self):
        first = next(i for i, m in enumerate(self.parts) if m["type"] == "strokePart")
        with self.assertRaisesRegex(StrokePartsError, "without its parts before it"):
            join_all(self.parts[:first] + self.parts[first + 1:])

    def test_a_closing_line_that_counts_other_parts_is_refused(self):
        closing = next(i for i, m in enumerate(self.parts) if m["type"] == "stroke" and "parts" in m)
        altered = copy.deepcopy(self.parts)
        altered[closing]["parts"] += 1
        with self.assertRaisesRegex(StrokePartsError, "closes"):
            join_all(altered)

    def test_a_partial_stroke_past_the_bound_is_refused(self):
        with self.assertRaisesRegex(StrokePartsError, "grows past 10 points"):
            join_all(self.parts, max_points=10)

    def test_strokes_before_a_bad_part_were_delivered(self):
        closing = next(i for i, m in enumerate(self.parts) if m["type"] == "stroke" and "parts" in m)
        assembler = StrokeAssembler()
        delivered = [m for m in (assembler.take(m) for m in self.parts[:closing + 1]) if m is not None]
        self.assertEqual(delivered[-1], self.whole[len(delivered) - 1])
        with self.assertRaises(StrokePartsError):
            assembler.take({"type": "strokePart", "seq": 999, "stroke": 999, "part": 3, "points": []})

    def test_the_client_asks_for_parts_and_yields_whole_strokes(self):
        requests = []

        def serve(conn):
            requests.append(json.loads(conn.makefile("rb").readline()))
            body = "".join(json.dumps(m) + "\n" for m in self.parts)
            conn.sendall(body.encode() + b'{"type":"shutdown","reason":"done"}\n')

        with OneConnectionServer(serve) as server:
            client = PenkitClient(server.path)
            client.subscribe(["strokes"])
            received = [m for m in client if m["type"] == "stroke"]
            client.close()
        self.assertEqual(requests[0]["strokeParts"], True)
        self.assertEqual(received, self.whole)
        self.assertEqual([s.seq for s in (m for m in map(__import__("penkit").parse_message, received))],
                         [m["seq"] for m in self.whole])

if __name__ == "__main__":
    unittest.main()
