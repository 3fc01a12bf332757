#!/usr/bin/env python3
"""`penkit view`'s surface page in headless Chromium: an app that draws with penkit in its own
window (docs/apps.md). `penkit view --replay TRACE --realtime` serves a real trace while DevTools
drives pen PointerEvents (Input.dispatchMouseEvent, pointerType "pen", force, tilt, timestamps)
along the same trace's positions, placed in the page by a map this test chooses (a quarter turn,
×6, an offset). For a stretch of the trace the pen is over "another window" (the page's right
strip) instead. The page pairs its own events with penkit's frames; the checks read pixels:

- the predicted ink lies ahead of the pointer along the trace's path, where the map puts it;
- each finalized stroke lies on the pointer's path within 1 px, and its ink is there;
- while the pen was over the other window, no ink was drawn (and those strokes were not finalized here).

It also runs the shared SurfacePairing vectors through the page's own module.
Usage: view-surface-browser-test.py PENKIT_BINARY OUTPUT_DIR"""
import importlib.util, json, math, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("view_browser_test", os.path.join(HERE, "view-browser-test.py"))
vbt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vbt)
fail, near, is_ink, WAIT = vbt.fail, vbt.near, vbt.is_ink, vbt.WAIT

TRACE = "traces/wacom-dth2242-pen.evemu"
SCALE = 6.0
# Tablet mm → page px: x' = −6·y + 1020, y' = 6·x − 1570 (a quarter turn, ×6, an offset).
MAP = (0.0, SCALE, -SCALE, 0.0, 1020.0, -1570.0)
# Reports [ELSEWHERE_FROM, ELSEWHERE_TO) happen with the pen over another window (hovering at both ends).
ELSEWHERE_FROM, ELSEWHERE_TO = 400, 900
OTHER_WINDOW = (1160.0, 400.0)  # where the pointer goes then: the page's right strip
PREDICTED, LIVE, BLACK = vbt.PREDICTED, vbt.LIVE, (0, 0, 0)


def place(x, y):
    a, b, c, d, tx, ty = MAP
    return a * x + c * y + tx, b * x + d * y + ty


def frames_of(penkit):
    out = subprocess.run([penkit, "replay", "--json", TRACE], check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith('{"type":"frame"')]


def distance_to_polyline(p, line):
    best = math.inf
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        k = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - ax - k * dx, p[1] - ay - k * dy))
    if len(line) == 1:
        best = math.hypot(p[0] - line[0][0], p[1] - line[0][1])
    return best


def evaluate_async(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
    if "exceptionDetails" in result:
        fail(f"the page threw: {result['exceptionDetails']}")
    return result["result"].get("value")


def vectors_in_page(browser, session, token):
    """The shared vectors through the module the page itself loaded, with the checks of the Swift and Python tests."""
    repo = os.path.dirname(HERE)
    source = open(os.path.join(HERE, "surface-pairing-vectors-check.mjs")).read().split("// node:")[0]
    source = source.replace("export function checkVectors", "function checkVectors")
    vectors = open(os.path.join(repo, "Tests/Fixtures/surface-pairing/vectors.json")).read()
    result = evaluate_async(browser, session, "(async () => {" + source
                            + f"const {{ SurfacePairing }} = await import('./penkit-surface.js?token={token}');"
                            + f"return checkVectors({vectors}, SurfacePairing); }})()")
    for line in result["summary"]:
        print(f"  vector (page's module) {line}")
    if result["problems"]:
        fail("shared vectors in the page: " + "; ".join(result["problems"][:5]))


def dispatch(browser, session, kind, x, y, frame, base, t0, pressed):
    s = frame["sample"] if frame else {}
    params = {"type": kind, "x": x, "y": y, "pointerType": "pen", "button": "left" if kind != "mouseMoved" else "none",
              "buttons": 1 if pressed else 0, "clickCount": 1 if kind != "mouseMoved" else 0,
              "force": s.get("force", 0.0) if pressed else 0.0,
              "tiltX": 0, "tiltY": 0}
    if frame:
        # The report's own time on a clock of the test's (an offset the page has to learn).
        params["timestamp"] = base + (s["t"] - t0) / 1e6
        alt, az = s.get("altitude", math.pi / 2), s.get("azimuth", 0.0)
        lean = math.degrees(math.pi / 2 - alt)
        params["tiltX"] = max(-90, min(90, int(round(lean * math.cos(az)))))
        params["tiltY"] = max(-90, min(90, int(round(lean * math.sin(az)))))
    # Not waited for: Chromium hands input to the page once per display frame, so waiting would hold
    # the pen to 60 reports a second; queued, they reach the page as coalesced events, each with its
    # own time (getCoalescedEvents), as a real pen's do.
    send(browser, "Input.dispatchMouseEvent", params, session)


def send(browser, method, params, session):
    browser.next_id += 1
    message = {"id": browser.next_id, "method": method, "params": params, "sessionId": session}
    os.write(browser.to_chrome, json.dumps(message).encode() + b"\0")


def delivery_in_page(browser, session, penkit, token):
    """What the page's own penkit-surface.js hands over besides frames (`ended` after the stroke's
    frames, every `update`), on the real trace with the page's pen behind: scripts/surface-delivery-check.mjs."""
    source = open(os.path.join(HERE, "surface-delivery-check.mjs")).read().split("// node:")[0]
    source = source.replace("export function checkDelivery", "function checkDelivery").replace("export const SCENARIOS", "const SCENARIOS")
    lines = subprocess.run([penkit, "replay", "--json", "--late-pressure", "150", "traces/wacom-dth2242-pen.evemu"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    result = evaluate_async(browser, session, "(async () => {" + source
                            + f"const {{ SurfacePairing }} = await import('./penkit-surface.js?token={token}');"
                            + f"const lines = {json.dumps(lines)};"
                            + "return SCENARIOS.map(([lag, enterAt]) => ({ lag, enterAt, ...checkDelivery(lines, SurfacePairing, lag, enterAt) })); })()")
    for r in result:
        print(f"  delivery (page's module), the pen {r['lag']} ms behind from report {r['enterAt']}: {r['strokes']} strokes, {len(r['problems'])} problems")
        if r["problems"] or r["strokes"] < 7:
            fail("the page's pairing module: " + "; ".join(r["problems"][:5]))


def run(browser, penkit, out):
    frames = frames_of(penkit)
    if len(frames) <= ELSEWHERE_TO + 60:
        fail(f"{TRACE} is shorter than this test assumes")
    for i in (ELSEWHERE_FROM, ELSEWHERE_TO):
        if "stroke" in frames[i] or "stroke" in frames[i - 1]:
            fail(f"report {i} is not a hover report: the pen must cross windows hovering")
    strokes = sorted({f["stroke"] for f in frames[ELSEWHERE_TO:] if "stroke" in f})
    # Freeze the picture in the middle of the first stroke after the pen came back.
    mid = [i for i, f in enumerate(frames) if f.get("stroke") == strokes[0]]
    freeze_at = mid[len(mid) // 2]
    view, url = vbt.start_view(penkit, TRACE, realtime=True)
    token = url.rsplit("token=", 1)[1]
    surface_url = url.replace("/?token=", "/surface?token=")
    try:
        session = browser.open(surface_url)
        browser.wait_for(session, "window.penkitSurface !== undefined", "its module running")
        vectors_in_page(browser, session, token)
        delivery_in_page(browser, session, penkit, token)
        browser.evaluate(session, f"penkitSurface.freezeAtTime = {frames[freeze_at]['sample']['t']}")
        browser.wait_for(session, "penkitSurface.received > 0", "penkit's first frame")
        t0, base, start = frames[0]["sample"]["t"], time.time() + 1000.0, time.monotonic()
        here, pressed, shot_mid, worst_lag = True, False, None, 0.0
        for i, f in enumerate(frames):
            delay = start + (f["sample"]["t"] - t0) / 1e6 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            worst_lag = max(worst_lag, -delay)
            inside = not (ELSEWHERE_FROM <= i < ELSEWHERE_TO)
            x, y = place(f["sample"]["x"], f["sample"]["y"]) if inside else OTHER_WINDOW
            contact = "stroke" in f
            if inside != here:
                here = inside
            if contact and not pressed:
                dispatch(browser, session, "mousePressed", x, y, f, base, t0, True)
            elif not contact and pressed:
                dispatch(browser, session, "mouseReleased", x, y, f, base, t0, False)
            else:
                dispatch(browser, session, "mouseMoved", x, y, f, base, t0, contact)
            pressed = contact
            # (Asked now and then only: each question waits for the page's next display frame.)
            if shot_mid is None and i >= freeze_at and i % 10 == 0 and browser.evaluate(session, "penkitSurface.frozen !== null"):
                shot_mid = browser.screenshot(session, os.path.join(out, "surface-mid-stroke.png"))
                frozen = browser.evaluate(session, "penkitSurface.frozen")
                browser.evaluate(session, "penkitSurface.thaw()")
        print(f"  the test's pen ran at most {worst_lag * 1000:.0f} ms behind the trace's pace")
        if shot_mid is None:
            seen = browser.evaluate(session, "JSON.stringify({ready: penkitSurface.ready, appEvents: penkitSurface.appEvents,"
                                             " frames: penkitSurface.frames, received: penkitSurface.received,"
                                             " clockOffset: penkitSurface.clockOffset})")
            fail(f"the page never drew a predicted frame in the middle of a stroke (the page: {seen})")
        browser.wait_for(session, "penkitSurface.ended", "the end of the replay")
        seen = browser.evaluate(session, "JSON.stringify({ready: penkitSurface.ready, appEvents: penkitSurface.appEvents,"
                                         " frames: penkitSurface.frames, received: penkitSurface.received, frozen: penkitSurface.frozen !== null,"
                                         " finalized: penkitSurface.finalized.map(s => s.id), clockOffset: penkitSurface.clockOffset,"
                                         " held: penkitSurface.pairing.held.length, owned: [...penkitSurface.pairing.owned],"
                                         " pairsEnd: [...penkitSurface.pairing.devices.values()].map(l => l.pairs.length && l.pairs[l.pairs.length-1].frameTime),"
                                         " pending: penkitSurface.pairing.pending.length})")
        print(f"  the page at the end: {seen}")
        browser.wait_for(session, f"penkitSurface.finalized.some(s => s.id === {strokes[-1]})", "the last stroke finalized")
        # Drawn at the next display frame: wait for the page to have drawn it (its redraw flag cleared).
        browser.wait_for(session, "penkitSurface.drawnFinalized === penkitSurface.finalized.length", "the last stroke drawn")
        shot = browser.screenshot(session, os.path.join(out, "surface-final.png"))
        state = browser.evaluate(session, "({ready: penkitSurface.ready, map: penkitSurface.map, clockOffset: penkitSurface.clockOffset,"
                                          " appEvents: penkitSurface.appEvents, frames: penkitSurface.frames,"
                                          " finalized: penkitSurface.finalized})")
    finally:
        view.kill()
        view.wait()

    print(f"  the page: map ready {state['ready']}, {state['appEvents']} own pen events, {state['frames']} frames delivered, "
          f"{len(state['finalized'])} strokes finalized here; learned map {[round(v, 4) for v in state['map'] or []]}")
    check_prediction(shot_mid, frames, frozen)
    check_final(shot, frames, state)


def check_prediction(shot, frames, frozen):
    """Predicted ink: magenta pixels on the trace's path as the map places it, ahead of the pointer."""
    width, height, pixel = shot
    f = next(fr for fr in frames if fr["sample"]["t"] == frozen["t"])
    pointer = place(f["sample"]["x"], f["sample"]["y"])
    stroke = [fr for fr in frames if fr.get("stroke") == f["stroke"]]
    path = [(fr["sample"]["t"], place(fr["sample"]["x"], fr["sample"]["y"])) for fr in stroke]
    magenta = [(x, y) for y in range(max(0, int(pointer[1]) - 80), min(height, int(pointer[1]) + 80))
               for x in range(max(0, int(pointer[0]) - 80), min(width, int(pointer[0]) + 80)) if near(pixel(x, y), PREDICTED)]
    if len(magenta) < 5:
        fail(f"predicted ink: {len(magenta)} magenta pixels near the pointer at {pointer}")
    dense = [(t, p) for t, p in path]
    ahead = sum(1 for m in magenta if min(dense, key=lambda tp: math.hypot(m[0] - tp[1][0], m[1] - tp[1][1]))[0] > f["sample"]["t"])
    on_path = sum(1 for m in magenta if distance_to_polyline(m, [p for _, p in path]) <= 6)
    tip = max(magenta, key=lambda m: math.hypot(m[0] - pointer[0], m[1] - pointer[1]))
    print(f"  mid-stroke (report at t={f['sample']['t']}): {len(magenta)} magenta px, {ahead} ahead of the pointer, "
          f"{on_path} within 6 px of the stroke's path; the tip {math.hypot(tip[0] - pointer[0], tip[1] - pointer[1]):.1f} px out")
    if ahead < 0.6 * len(magenta):
        fail("predicted ink: most of it is not ahead of the pointer along the trace's path")
    if on_path < 0.9 * len(magenta):
        fail("predicted ink: it is not where the map puts the trace's path")
    if math.hypot(frozen["from"][0] - pointer[0], frozen["from"][1] - pointer[1]) > 1:
        fail(f"the frame the prediction starts from is drawn at {frozen['from']}, the pointer was at {pointer}")


def check_final(shot, frames, state):
    width, height, pixel = shot
    here = [f for i, f in enumerate(frames) if not (ELSEWHERE_FROM <= i < ELSEWHERE_TO)]
    away = [f for i, f in enumerate(frames) if ELSEWHERE_FROM <= i < ELSEWHERE_TO]
    away_strokes = {f["stroke"] for f in away if "stroke" in f}
    finalized = {s["id"]: s["points"] for s in state["finalized"]}
    if away_strokes & set(finalized):
        fail(f"strokes {sorted(away_strokes & set(finalized))} were drawn over another window, yet finalized here")
    worst = 0.0
    for sid, points in finalized.items():
        pointer_path = [place(f["sample"]["x"], f["sample"]["y"]) for f in here if f.get("stroke") == sid]
        for p in points:
            worst = max(worst, distance_to_polyline(p, pointer_path))
            x, y = int(round(p[0])), int(round(p[1]))
            if not any(is_ink(pixel(x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                fail(f"stroke {sid}: no ink drawn at its point {p}")
    print(f"  finalized: {len(finalized)} strokes, every point within {worst:.3f} px of the pointer's path")
    if worst > 1:
        fail(f"a finalized stroke lies {worst:.2f} px off the pointer's path")
    # Nothing where the pen went while it was over the other window (away from where it also went here).
    here_pts = [place(f["sample"]["x"], f["sample"]["y"]) for f in here]
    inked = 0
    checked = 0
    # Not the reports within the pairing's lead (50 ms) and a compositor's delay (20 ms) of either
    # end: the page learns that the pen left from its own next event.
    first, last = away[0]["sample"]["t"] + 70000, away[-1]["sample"]["t"] - 70000
    for f in away:
        if not (first <= f["sample"]["t"] <= last):
            continue
        x, y = place(f["sample"]["x"], f["sample"]["y"])
        if min(math.hypot(x - a, y - b) for a, b in here_pts) < 8 or not (0 <= x < width - 240 and 0 <= y < height):
            continue
        checked += 1
        if any(not near(pixel(int(x) + dx, int(y) + dy), (255, 255, 255), 30) for dx in (-2, 0, 2) for dy in (-2, 0, 2)):
            inked += 1
    print(f"  over the other window: {len(away)} reports, {len(away_strokes)} strokes; {checked} of their places checked, {inked} inked")
    if checked < 50:
        fail("too few places of the pen's path over the other window to check")
    if inked:
        fail(f"ink was drawn at {inked} places the pen reached while it was over another window")


def main():
    penkit, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        browser = vbt.Browser(profile)
        try:
            browser.call("Browser.getVersion")
            print(f"{TRACE} at its recorded pace; the page's own pen driven along it, placed by {MAP}")
            run(browser, penkit, out)
        finally:
            browser.close()
    print(f"view surface browser test: passed; screenshots in {out}")


if __name__ == "__main__":
    main()
