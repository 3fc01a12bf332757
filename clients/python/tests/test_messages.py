"""penkit.messages against Tests/Fixtures/messages/session.jsonl: one real line of each kind a
penkitd sent (the fixture's README says how each was made), the same lines PenKit's Swift client
is checked against. Expected values are read from the lines themselves."""
import json
import os
import unittest

from penkit import messages
from penkit.messages import parse_message

FIXTURES = os.environ.get("PENKIT_FIXTURES") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "Fixtures")
SESSION = os.path.join(FIXTURES, "messages", "session.jsonl")


class MessageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SESSION) as f:
            cls.lines = [json.loads(line) for line in f if line.strip()]

    def test_every_real_line_is_typed(self):
        self.assertGreaterEqual(len(self.lines), 15)
        kinds = set()
        for obj in self.lines:
            message = parse_message(obj)
            self.assertNotIsInstance(message, messages.Unknown, obj["type"])
            self.assertIs(message.raw, obj)
            kinds.add(type(message).__name__)
        self.assertTrue({"Hello", "Frame", "Stroke", "Action", "Pad", "PressureSource", "DeviceChange", "Shutdown"} <= kinds, kinds)

    def test_shutdown_says_the_last_stroke_sent(self):
        shutdown = [parse_message(obj) for obj in self.lines if obj["type"] == "shutdown"][0]
        self.assertEqual(shutdown.last_sent_seq, shutdown.raw["lastSentSeq"])
        self.assertIsNone(parse_message({"type": "shutdown", "reason": "SIGTERM"}).last_sent_seq)

    def test_actions_pads_and_pressure_sources_carry_their_fields(self):
        for obj in self.lines:
            message = parse_message(obj)
            if obj["type"] == "action":
                source = obj["source"]
                self.assertEqual((message.action, message.trigger, message.kind, message.button),
                                 (obj["action"], source["trigger"], source["kind"], source["button"]))
                self.assertEqual(message.double, source["press"] == "double")
                self.assertEqual(message.tool.serial, source["tool"]["serial"])
            elif obj["type"] == "pad":
                self.assertEqual((message.event, message.number, message.position, message.mode),
                                 (obj["event"], obj["number"], obj["position"], obj["mode"]))
                self.assertEqual(message.from_finger, obj["source"] == "finger")
            elif obj["type"] == "pressure-source":
                self.assertEqual((message.device, message.state, message.reason), (obj["device"], obj["state"], obj.get("reason")))
                self.assertEqual(message.contact_frames, obj.get("contactFrames"))
            elif obj["type"] == "status":
                self.assertEqual((message.config_file, message.devices, message.settings),
                                 (obj.get("configFile"), obj["devices"], obj["settings"]))
            elif obj["type"] == "frame":
                self.assertEqual(message.stroke, obj.get("stroke"))
                self.assertEqual(message.tool.serial, obj["tool"]["serial"])

    def test_overflow_is_its_own_fatal_kind_and_other_errors_stay_errors(self):
        overflow = parse_message({"type": "error", "code": "overflow", "message": "behind", "fatal": True, "lastSentSeq": 41})
        self.assertIsInstance(overflow, messages.Overflow)
        self.assertEqual(overflow.last_sent_seq, 41)
        gap = parse_message({"type": "error", "code": "history_gap", "message": "gone", "fatal": False})
        self.assertIsInstance(gap, messages.Error)
        self.assertEqual((gap.code, gap.fatal), ("history_gap", False))

    def test_a_newer_servers_type_is_kept_and_a_broken_line_refused(self):
        unknown = parse_message({"type": "sparkle", "x": 1})
        self.assertIsInstance(unknown, messages.Unknown)
        self.assertEqual(unknown.raw["x"], 1)
        with self.assertRaises(KeyError):
            parse_message({"type": "action", "action": "switchEraser", "device": 1, "t": 5})
        with self.assertRaises(ValueError):
            parse_message({"type": "pad", "device": 1, "t": 5, "event": "dial", "group": 0, "mode": 0})


if __name__ == "__main__":
    unittest.main()
