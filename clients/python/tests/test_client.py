"""PenkitClient against a socket this test serves itself (no penkitd needed)."""
import json
import os
import socket
import tempfile
import threading
import unittest

from penkit.client import PenkitClient, candidate_sockets, discover
from tests.one_connection_server import OneConnectionServer


class ClientTests(unittest.TestCase):
    def test_candidates_in_penkits_order(self):
        paths = candidate_sockets({"PENKIT_SOCKET": "/a.sock", "XDG_RUNTIME_DIR": "/run/user/7"})
        self.assertEqual(paths, ["/a.sock", "/run/user/7/penkit/penkit.sock", "/run/penkit/penkit.sock"])

    def test_discover_names_every_path_tried(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "none.sock")
            with self.assertRaises(OSError) as raised:
                discover([missing])
            self.assertIn(missing, str(raised.exception))
            self.assertIn("no socket there", str(raised.exception))

    def test_reads_hello_and_sends_subscribe(self):
        received = []

        def serve(conn):
            conn.sendall(b'{"type":"hello","version":1,"server":"test","devices":[]}\n')
            received.append(conn.makefile("rb").readline())
            conn.sendall(b'not json\n{"type":"shutdown","reason":"done"}\n')

        with OneConnectionServer(serve) as server:
            client = PenkitClient(server.path)
            messages = iter(client)
            self.assertEqual(next(messages)["type"], "hello")
            client.subscribe(["frames"], since=3)
            self.assertEqual([m["type"] for m in messages], ["shutdown"])  # the line that is not JSON is skipped
            client.close()
        self.assertEqual(json.loads(received[0]), {"type": "subscribe", "version": 1, "channels": ["frames"], "since": 3,
                                                   "strokeParts": True})

    def test_request_status_sends_the_request_and_the_answer_comes_typed(self):
        received = []

        def serve(conn):
            conn.sendall(b'{"type":"hello","version":1,"server":"test","devices":[]}\n')
            received.append(conn.makefile("rb").readline())
            conn.sendall(b'{"type":"status","version":1,"settings":[],"devices":[]}\n')

        with OneConnectionServer(serve) as server:
            client = PenkitClient(server.path)
            messages = client.messages()
            next(messages)
            client.request_status()
            status = next(messages)
            self.assertEqual((type(status).__name__, status.devices, status.config_file), ("Status", [], None))
            client.close()
        self.assertEqual(json.loads(received[0]), {"type": "status", "version": 1})

    def test_typed_messages_skip_lines_that_are_not_messages(self):
        def serve(conn):
            conn.sendall(b'{"type":"action","action":"switchEraser","device":1,"t":5,"source":{"trigger":"stylus",'
                         b'"kind":"stylus","button":331,"press":"single"}}\n'
                         b'{"type":"pad","device":2,"t":6}\n'  # no event: refused, skipped
                         b'{"type":"error","code":"overflow","message":"behind","fatal":true,"lastSentSeq":9}\n')

        with OneConnectionServer(serve) as server:
            client = PenkitClient(server.path)
            got = list(client.messages())
            client.close()
        self.assertEqual([type(m).__name__ for m in got], ["Action", "Overflow"])
        self.assertEqual((got[0].action, got[0].button, got[0].double), ("switchEraser", 331, False))
        self.assertEqual(got[1].last_sent_seq, 9)

if __name__ == "__main__":
    unittest.main()
