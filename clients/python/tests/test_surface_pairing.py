"""SurfacePairing against Tests/Fixtures/surface-pairing/vectors.json, the cases the Swift and
JavaScript implementations are checked against too (scripts/surface-pairing-vectors.py)."""
import json
import math
import os
import unittest
from unittest import mock

from penkit.affine import Affine, Pair, fit
from penkit import surface_pairing
from penkit.surface_pairing import AppPenEvent, SurfacePairing

# The checkout's Tests/Fixtures; PENKIT_FIXTURES names it when the tests run outside the checkout
# (scripts/python-install-test.sh runs them against the installed package).
FIXTURES = os.environ.get("PENKIT_FIXTURES") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "Fixtures")
VECTORS = os.path.join(FIXTURES, "surface-pairing", "vectors.json")


def truth_map(truth, device, time):
    chosen = truth[device][0][1]
    for start, m in truth[device]:
        if start <= time:
            chosen = m
    return chosen


def run(case):
    """The case through SurfacePairing in arrival order; returns what the checks need."""
    pairing = SurfacePairing(surface_width=case["window"]["width"], surface_height=case["window"]["height"])
    truth = {int(d): [(s["from"], Affine(*s["transform"])) for s in segs] for d, segs in case["truth"].items()}
    originals, frames, last_positions = {}, [], {}
    state = {"ready_after": None, "app_events": 0, "noticed": set(), "strokes": 0}

    def collect(deliveries):
        for d in deliveries:
            if d["type"] == "map":
                if d["change"] == "ready" and state["ready_after"] is None:
                    state["ready_after"] = state["app_events"]
                if d["change"] != "ready":
                    state["noticed"].add(d["device"])
            elif d["type"] == "frame":
                device, t = d["device"], d["sample"]["t"]
                moves = [start for start, _ in truth[device][1:]]
                stale = any(t >= start for start in moves) and device not in state["noticed"]
                frames.append((d, originals[(device, t)], stale))
            elif d["type"] == "stroke":
                state["strokes"] += 1

    for item in case["inputs"]:
        if "frame" in item:
            f = item["frame"]
            originals[(f["device"], f["sample"]["t"])] = f
            last_positions.setdefault(f["device"], []).append((f["sample"]["x"], f["sample"]["y"]))
            collect(pairing.handle_message(f))
        else:
            state["app_events"] += 1
            collect(pairing.handle_app_event(AppPenEvent.from_json(item["app"])))
    collect(pairing.finish())
    finals = {d: pairing.estimate(d) for d in pairing.device_ids()}
    return truth, frames, state, finals, last_positions


class SharedVectorTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(VECTORS) as f:
            cls.vectors = json.load(f)

    def test_the_file_has_cases(self):
        self.assertGreaterEqual(len(self.vectors["cases"]), 5)

    def test_every_case(self):
        tolerance = self.vectors["tolerance"]
        for case in self.vectors["cases"]:
            with self.subTest(case=case["name"]):
                truth, frames, state, finals, last_positions = run(case)
                allowed = {(d, t) for d, t in case["allowed"]}
                if not case["expectReady"]:
                    self.assertEqual(frames, [], "delivered though no map can be told")
                    continue
                self.assertIsNotNone(state["ready_after"], "never ready")
                self.assertLessEqual(sum(1 for _, _, stale in frames if stale), 3)
                for d, original, stale in frames:
                    if stale:
                        continue
                    device, t = d["device"], d["sample"]["t"]
                    self.assertIn((device, t), allowed, "delivered while the pen was elsewhere")
                    m = truth_map(truth, device, t)
                    x, y = m.apply(original["sample"]["x"], original["sample"]["y"])
                    self.assertLessEqual(math.hypot(x - d["sample"]["x"], y - d["sample"]["y"]), tolerance)
                    if original.get("predicted") and d.get("predicted"):
                        p, q = original["predicted"][-1], d["predicted"][-1]
                        px, py = m.apply(p["x"], p["y"])
                        self.assertLessEqual(math.hypot(px - q["x"], py - q["y"]), tolerance)
                    if original.get("expectedError") is not None:
                        expected = original["expectedError"] * m.width_scale
                        self.assertAlmostEqual(d["expectedError"], expected, delta=1e-3 * expected)
                for device, segments in truth.items():
                    final = finals.get(device)
                    self.assertIsNotNone(final, "no map at the end for device %d" % device)
                    got, want = Affine(*final["transform"]), segments[-1][1]
                    for x, y in last_positions[device][-50:]:
                        u, v = got.apply(x, y), want.apply(x, y)
                        self.assertLessEqual(math.hypot(u[0] - v[0], u[1] - v[1]), tolerance)
                agreed = case.get("agreed")
                if agreed:
                    self.assertEqual(state["ready_after"], agreed["readyAfter"], "Swift was ready after")
                    self.assertEqual(len(frames), agreed["deliveredFrames"], "Swift delivered")


class FitTests(unittest.TestCase):
    def test_an_exact_map_is_recovered(self):
        truth = Affine(0.0, 2.5, -2.5, 0.0, 100.0, -20.0)  # a quarter turn, ×2.5, an offset
        points = [(10.0, 10.0), (30.0, 12.0), (22.0, 40.0), (5.0, 33.0), (17.0, 19.0)]
        pairs = [Pair(x, y, *truth.apply(x, y), lag=0.0, frame_time=0) for x, y in points]
        result = fit(pairs)
        self.assertIsNotNone(result)
        for got, want in zip(result.transform, truth):
            self.assertAlmostEqual(got, want, places=9)

    def test_points_on_a_line_tell_no_map(self):
        pairs = [Pair(float(i), 2.0 * i, float(i), float(i), 0.0, 0) for i in range(10)]
        self.assertIsNone(fit(pairs))

    def test_nothing_is_delivered_before_the_app_has_the_pen(self):
        pairing = SurfacePairing()
        frame = {"type": "frame", "device": 1, "sample": {"t": 1000, "x": 1.0, "y": 2.0}, "predicted": []}
        self.assertEqual(pairing.handle_message(frame), [])




class SearchCostTests(unittest.TestCase):
    """The offset search tries every remembered frame against every waiting event. A pen that
    rests or taps never spreads enough to decide; searched on every message, a resting pen cost
    135 ms per report on a fast host and left the GTK example seconds behind its pen."""

    def feed(self, pairing, reports, start, place):
        """`reports` frames 5 ms apart and the app's event for each 3 ms later, at `place(i)` mm."""
        for i in range(reports):
            x, y = place(i)
            t = start + i * 5000
            pairing.handle_message({"type": "frame", "device": 1,
                                    "sample": {"t": t, "x": x, "y": y, "force": 0.3}, "predicted": []})
            pairing.handle_app_event(AppPenEvent(math.floor(t / 1000 + 3), 4 * x + 10, 4 * y + 20, "move", "pen"))

    def test_a_resting_pen_fits_nothing_and_a_moving_one_still_pairs(self):
        with mock.patch.object(surface_pairing, "fit", wraps=surface_pairing.fit) as fits:
            pairing = SurfacePairing(surface_width=2000, surface_height=2000)
            # 1000 reports within 0.1 mm: no set of them spreads 0.2 mm, so no trial is fitted.
            self.feed(pairing, 1000, 10_000_000, lambda i: (100 + 0.1 * (i % 2), 50 + 0.05 * (i % 3)))
            self.assertEqual(fits.call_count, 0)
            self.assertIsNone(pairing.clock_offset)
            # Then a curve of some mm (not a circle: a circle shifted along itself is the circle
            # turned, which an affine map fits as well): the search runs again and finds the offset.
            self.feed(pairing, 200, 16_000_000, lambda i: (100 + 5 * math.cos(i / 20) + 0.03 * i, 50 + 3 * math.sin(i / 13)))
            self.assertGreater(fits.call_count, 0)
            self.assertEqual(pairing.clock_offset, 3)

    def test_a_failed_search_waits_for_more_events(self):
        with mock.patch.object(SurfacePairing, "_search", autospec=True, side_effect=SurfacePairing._search) as searches:
            pairing = SurfacePairing(surface_width=2000, surface_height=2000)
            # Circling at an even pace: wide, but every shift along the circle fits as well.
            self.feed(pairing, 600, 10_000_000, lambda i: (100 + 5 * math.cos(i / 20), 50 + 5 * math.sin(i / 20)))
            self.assertIsNone(pairing.clock_offset)
            # At most one search per `search_events` app events (and the first ones, with too few).
            self.assertLessEqual(searches.call_count, 600 // surface_pairing.SurfacePairingConfiguration().search_events + 12)


if __name__ == "__main__":
    unittest.main()
