#!/usr/bin/env python3
"""`penkit view`'s canvas (`/`, docs/view.md) in headless Chromium, used as a PencilKit user would.

`penkit view --replay TRACE --realtime --late-pressure 150` serves a real trace while DevTools drives
the page's own pen PointerEvents (pointerType "pen", force, tilt, timestamps) along the same
trace's positions, placed in the page by maps this test chooses (×15 and an offset). Between
strokes the pen goes over another window (the tool picker's strip) and the window moves (the
map's offset changes), so that the trace's strokes land where the scenario needs them:

1. trace stroke 1 is drawn with the pen ink (A), stroke 2 with the pen too (C);
2. with the lasso picked, the pen draws a lasso around A, which selects it, and drags A 200 px
   down (the lasso and the erasers take the pen's own events; penkit's pairing serves ink only);
3. trace stroke 4 is drawn with the marker (B); the picture is frozen mid-stroke once;
4. trace stroke 6, crossing B's middle, is the pen with the pixel eraser picked: the pen stops
   while still down past B's middle, and B is already cut where the eraser passed;
5. undo (B whole again), redo (cut again), save: the `.penkit` file is reopened by
   `penkit drawing FILE --svg OUT.svg`, and that SVG rendered in Chromium.

Every check reads pixels of a screenshot at positions computed from the trace and the test's maps,
never from the page's own drawing. Screenshots go to OUTPUT_DIR.
Usage: view-canvas-browser-test.py PENKIT_BINARY OUTPUT_DIR"""
import base64, importlib.util, json, math, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


vbt = load("view_browser_test", "view-browser-test.py")
vst = load("view_surface_browser_test", "view-surface-browser-test.py")
fail, WAIT = vbt.fail, vbt.WAIT

TRACE = "traces/wacom-dth2242-pen.evemu"
S = 15.0
# Tablet mm → page px, per window position: M0 for strokes 1 and 2, M1 for stroke 4, M2 for stroke 6
# (set in plan(): stroke 6's middle on B's middle).
M0 = (S, 0.0, 0.0, S, 60 - S * 265, 40 - S * 128)
M1 = (S, 0.0, 0.0, S, 500 - S * 305, 40 - S * 46)
# Reports in [AWAY1, M1_FROM) and [AWAY2, M2_FROM) happen with the pen over another window; the
# window moves meanwhile. Everything else is here when the map puts it on the canvas.
AWAY1, M1_FROM, AWAY2, M2_FROM = 160, 650, 890, 1000
A_ID, C_ID, B_ID, ERASER_ID = 1, 2, 4, 6
MOVE = (0.0, 200.0)                     # the drag that moves A, px
LASSO_RADIUS = 40.0
OTHER_X = 1160.0                        # the picker's strip (the page's right 240 px), below its controls
PEN_WIDTH, MARKER_WIDTH, ERASER_WIDTH = 2.0, 3.0, 3.0  # mm
PX_PER_MM = 96 / 25.4


def place(m, x, y):
    a, b, c, d, tx, ty = m
    return a * x + c * y + tx, b * x + d * y + ty


WHITE, MAGENTA = (255, 255, 255), (255, 0, 255)


def white(p, tolerance=40, paper=WHITE):
    """Whether p is the paper's colour (white, or the magenta a transparent image is shown over)."""
    return vbt.near(p, paper, tolerance)


def inked_near(pixel, x, y, r=2, paper=WHITE):
    return any(not white(pixel(int(round(x)) + dx, int(round(y)) + dy), paper=paper) for dx in range(-r, r + 1) for dy in range(-r, r + 1))


def clean_near(pixel, x, y, r=2, paper=WHITE):
    return all(white(pixel(int(round(x)) + dx, int(round(y)) + dy), paper=paper) for dx in range(-r, r + 1) for dy in range(-r, r + 1))


def dense(points, step=1.0):
    """The polyline through `points` every `step` px (the trace's reports lie up to several px apart)."""
    out = [points[0]]
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) / step))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(1, n + 1)]
    return out


class Plan:
    """Where everything is, from the trace and the maps alone."""

    def __init__(self, frames, size):
        self.frames, (self.width, self.height) = frames, size
        by_stroke = {}
        for i, f in enumerate(frames):
            if "stroke" in f:
                by_stroke.setdefault(f["stroke"], []).append(i)
        self.by_stroke = by_stroke
        b = [place(M1, frames[i]["sample"]["x"], frames[i]["sample"]["y"]) for i in by_stroke[B_ID]]
        mid_b = b[len(b) // 2]
        e = [(frames[i]["sample"]["x"], frames[i]["sample"]["y"]) for i in by_stroke[ERASER_ID]]
        ex = sum(p[0] for p in e) / len(e)
        ey = sum(p[1] for p in e) / len(e)
        self.m2 = (S, 0.0, 0.0, S, mid_b[0] - S * ex, mid_b[1] - S * ey)
        self.maps = [self.map_of(i) for i in range(len(frames))]
        self.pos = [place(self.maps[i], f["sample"]["x"], f["sample"]["y"]) for i, f in enumerate(frames)]
        self.here = [self.is_here(i) for i in range(len(frames))]
        for sid in (A_ID, C_ID, B_ID, ERASER_ID):
            if not all(self.here[i] for i in by_stroke[sid]):
                fail(f"plan: trace stroke {sid} is not wholly on the canvas")
        for i in range(1, len(frames)):
            if self.here[i] != self.here[i - 1] and ("stroke" in frames[i] or "stroke" in frames[i - 1]):
                fail(f"plan: the pen would cross windows in contact at report {i}")
        self.a = self.points(A_ID)
        self.c = self.points(C_ID)
        self.b = self.points(B_ID)
        self.eraser = self.points(ERASER_ID)
        self.a_moved = [(x + MOVE[0], y + MOVE[1]) for x, y in self.a]
        self.a_centre = (sum(p[0] for p in self.a) / len(self.a), sum(p[1] for p in self.a) / len(self.a))
        # Everything else that gets ink on the canvas (strokes drawn while here), to keep checks clear of it.
        self.other_ink = [self.pos[i] for i, f in enumerate(frames)
                          if self.here[i] and f.get("stroke") not in (None, A_ID, ERASER_ID)]
        for p in self.other_ink + self.a_moved:
            if math.hypot(p[0] - self.a_centre[0], p[1] - self.a_centre[1]) < LASSO_RADIUS + 10 and p not in self.a_moved:
                fail(f"plan: other ink at {p} inside A's lasso")
        for p in self.a_moved:
            if min(math.hypot(p[0] - q[0], p[1] - q[1]) for q in self.other_ink) < 30:
                fail("plan: A would be moved onto other ink")

    def map_of(self, i):
        return M0 if i < M1_FROM else M1 if i < M2_FROM else self.m2

    def is_here(self, i):
        if AWAY1 <= i < M1_FROM or AWAY2 <= i < M2_FROM:
            return False
        x, y = self.pos[i]
        return 5 <= x <= self.width - 5 and 5 <= y <= self.height - 5

    def points(self, sid):
        return [self.pos[i] for i in self.by_stroke[sid]]

    def b_split(self, eraser_points):
        """B's points the pixel eraser (along `eraser_points`) must have cleared, and those well away from it."""
        radius = ERASER_WIDTH * PX_PER_MM / 2
        path = eraser_points if len(eraser_points) > 1 else eraser_points * 2
        # (2 px inside the eraser's edge: the ink left may end right at it, and the SVG's round nib and
        # fitted path may reach a pixel further than the canvas's.)
        line = dense(self.b)
        gone = [p for p in line if vst.distance_to_polyline(p, path) <= radius - 2]
        kept = [p for p in line if vst.distance_to_polyline(p, path) > radius + 25]
        return gone, kept


def wait_drawn(browser, session, what):
    browser.wait_for(session, "penkitCanvas.state.drawnVersion === penkitCanvas.drawing.version", what)
    # The layers show it at the next display frame after the version was drawn.
    vst.evaluate_async(browser, session, "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


def shoot(browser, session, out, name):
    return browser.screenshot(session, os.path.join(out, name))


class Later:
    """Screenshots taken while the trace plays, checked once it is over: decoding a PNG in Python
    takes a second or two, which the test's pen cannot wait for."""

    def __init__(self, browser, session, out):
        self.browser, self.session, self.out, self.checks = browser, session, out, []

    def shoot(self, name, check):
        data = base64.b64decode(self.browser.call("Page.captureScreenshot", {"format": "png"}, self.session)["data"])
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(data)
        self.checks.append((name, data, check))

    def run(self):
        for name, data, check in self.checks:
            print(f"  {name}:")
            check(vbt.decode_png(data)[2])


def require(label, points, pixel, want_ink, share=0.9, r=2, paper=WHITE):
    ok = [p for p in points if (inked_near(pixel, *p, r, paper) if want_ink else clean_near(pixel, *p, r, paper))]
    print(f"  {label}: {len(ok)} of {len(points)} places {'inked' if want_ink else 'clean'}")
    if not points:
        fail(f"{label}: nothing to check")
    if len(ok) < share * len(points):
        wrong = [(round(x, 1), round(y, 1)) for x, y in points if (x, y) not in ok][:5]
        fail(f"{label}: only {len(ok)} of {len(points)} places are {'inked' if want_ink else 'clean'} (not: {wrong})")


def pen(browser, session, kind, x, y, pressed, force=0.5):
    """The pen (pointerType "pen", DevTools' Input.dispatchMouseEvent, as the trace's reports are
    sent), waited for: these strokes are the test's own, with no penkit frames behind them."""
    browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "pointerType": "pen",
                                              "button": "left" if kind != "mouseMoved" else "none",
                                              "buttons": 1 if pressed else 0, "clickCount": 1 if kind != "mouseMoved" else 0,
                                              "force": force if pressed else 0.0, "tiltX": 0, "tiltY": 0}, session)


def pen_stroke(browser, session, points, what):
    """The pen comes down at points[0], moves through the rest and lifts; waits until the page's
    tool (the lasso or an eraser) has taken the whole stroke from the pen's own events."""
    pen(browser, session, "mouseMoved", *points[0], False)
    pen(browser, session, "mousePressed", *points[0], True)
    for p in points[1:]:
        pen(browser, session, "mouseMoved", *p, True)
    pen(browser, session, "mouseReleased", *points[-1], False)
    browser.wait_for(session, "(d => d && d.pointerType === 'pen' && !d.open && Math.hypot(d.last.x - %f, d.last.y - %f) < 1)"
                              "(penkitCanvas.state.direct)" % points[-1], what)


def ring_around(x, y):
    return [(x + LASSO_RADIUS * math.cos(2 * math.pi * k / 36), y + LASSO_RADIUS * math.sin(2 * math.pi * k / 36)) for k in range(37)]


def lasso_and_move(browser, session, plan, later):
    """With the pen and the lasso picked: a lasso around A, then a drag from A's centre by MOVE."""
    cx, cy = plan.a_centre
    browser.evaluate(session, "document.querySelector('[data-tool=lasso]').click()")
    pen_stroke(browser, session, ring_around(cx, cy), "the pen's lasso taken by the page")
    browser.wait_for(session, "penkitCanvas.drawing.selection.size === 1", "the lasso selecting one stroke")
    if browser.evaluate(session, "penkitCanvas.state.direct.kind") != "lasso":
        fail("the pen's stroke with the lasso picked was not a lasso")
    steps = 20
    pen_stroke(browser, session, [(cx + MOVE[0] * k / steps, cy + MOVE[1] * k / steps) for k in range(steps + 1)], "the pen's drag taken by the page")
    if browser.evaluate(session, "penkitCanvas.state.direct.kind") != "move":
        fail("the pen's drag from the selection did not move it")
    wait_drawn(browser, session, "the moved stroke drawn")

    def check(pixel):
        require("A moved: ink where the drag put it", plan.a_moved, pixel, True)
        require("A moved: no ink where it was", plan.a, pixel, False, share=1.0)
        require("C untouched", plan.c, pixel, True)
    later.shoot("canvas-moved.png", check)


def pick(browser, session, tool, width, color=None):
    script = f"(() => {{ document.querySelector('[data-tool={tool}]').click();"
    if color:
        script += f"document.querySelector('[data-color=\"{color}\"]').click();"
    script += (f"const w = document.getElementById('width'); w.value = {width};"
               " w.dispatchEvent(new Event('input')); return penkitCanvas.picker.tool + ' ' + penkitCanvas.picker.settings[penkitCanvas.picker.tool].width; })()")
    answer = browser.evaluate(session, script)
    if answer != f"{tool} {width}" and answer != f"{tool} {int(width)}":
        fail(f"the picker says {answer!r} after picking {tool} {width}")


def run(browser, penkit, out):
    frames = vst.frames_of(penkit)
    view, url = vbt.start_view(penkit, TRACE, realtime=True, extra=["--late-pressure", "150"])
    try:
        browser.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": os.path.abspath(out), "eventsEnabled": False})
        for name in ("drawing.penkit", "drawing (1).penkit", "canvas-saved.penkit", "drawing.svg", "drawing.png"):
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
        session = browser.open(url)
        later = Later(browser, session, out)
        browser.wait_for(session, "window.penkitCanvas !== undefined", "its modules running")
        size = browser.evaluate(session, "[document.getElementById('canvas-ink').clientWidth, document.getElementById('canvas-ink').clientHeight]")
        if size[0] + 240 != browser.evaluate(session, "innerWidth"):
            fail(f"the canvas is {size}: not the window less the picker's 240 px")
        plan = Plan(frames, size)
        other_window = (OTHER_X, size[1] - 20.0)
        t0 = frames[0]["sample"]["t"]
        b_frames = plan.by_stroke[B_ID]
        freeze_b = b_frames[len(b_frames) // 2]
        # The eraser frozen while still down: the first report past B's line, with reports of the stroke still to come.
        e_frames = plan.by_stroke[ERASER_ID]
        b_x = sum(p[0] for p in plan.b) / len(plan.b)
        side = 1 if plan.pos[e_frames[0]][0] > b_x else -1
        past = [i for i in e_frames if side * (plan.pos[i][0] - b_x) < -5]
        if not past or past[0] >= e_frames[-2]:
            fail("plan: the eraser does not cross B before its end")
        freeze_e = past[0]
        pick(browser, session, "pen", PEN_WIDTH, "#000000")
        browser.evaluate(session, f"penkitCanvas.state.freezeAtTime = {frames[freeze_b]['sample']['t']}")
        browser.wait_for(session, "penkitCanvas.state.received > 0", "penkit's first frame")
        # The pen in step with penkit's feed, which started when the page connected, as a real pen's
        # events reach the page and penkit together.
        since, first_t = browser.evaluate(session, "[performance.now() - penkitCanvas.state.firstFrame.at, penkitCanvas.state.firstFrame.t]")
        base, start = time.time() + 1000.0, time.monotonic() - since / 1000 - (first_t - t0) / 1e6
        pressed, worst_lag, here = False, 0.0, None
        done_lasso = done_marker = done_eraser = shot_b = shot_e = False
        for i, f in enumerate(frames):
            delay = start + (f["sample"]["t"] - t0) / 1e6 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            worst_lag = max(worst_lag, -delay)
            contact = "stroke" in f
            if plan.here[i]:
                x, y = plan.pos[i]
                if contact and not pressed:
                    vst.dispatch(browser, session, "mousePressed", x, y, f, base, t0, True)
                elif not contact and pressed:
                    vst.dispatch(browser, session, "mouseReleased", x, y, f, base, t0, False)
                else:
                    vst.dispatch(browser, session, "mouseMoved", x, y, f, base, t0, contact)
                pressed = contact
            elif here:
                # Over the other window: one move there; its own presses are not this page's.
                vst.dispatch(browser, session, "mouseMoved", *other_window, f, base, t0, False)
                pressed = False
            here = plan.here[i]
            if i >= AWAY1 + 5 and not done_lasso:
                done_lasso = True
                browser.wait_for(session, f"[{A_ID}, {C_ID}].every(id => penkitCanvas.state.finalized.includes(id))", "strokes A and C finalized")
                wait_drawn(browser, session, "A and C drawn")
                later.shoot("canvas-pen-strokes.png", lambda pixel: (require("A drawn with the pen ink", plan.a, pixel, True),
                                                                     require("C drawn with the pen ink", plan.c, pixel, True)))
                lasso_and_move(browser, session, plan, later)
                # Back over the other window, where the trace's pen is meanwhile.
                pen(browser, session, "mouseMoved", *other_window, False)
            if i >= AWAY1 + 10 and done_lasso and not done_marker:
                done_marker = True
                pick(browser, session, "marker", MARKER_WIDTH, "#1e63d6")
            if not shot_b and i >= freeze_b and i % 5 == 0 and browser.evaluate(session, "penkitCanvas.state.frozen !== null"):
                shot_b = True
                frozen = browser.evaluate(session, "penkitCanvas.state.frozen")
                k = next(j for j in b_frames if frames[j]["sample"]["t"] == frozen["t"])
                drawn = [plan.pos[j] for j in b_frames if j <= k - 3]
                ahead = [plan.pos[j] for j in b_frames if frames[j]["sample"]["t"] > frozen["t"] + 80000
                         and math.hypot(plan.pos[j][0] - plan.pos[k][0], plan.pos[j][1] - plan.pos[k][1]) > 25]
                print(f"  B frozen mid-stroke at report {k} (t={frozen['t']}), {len(drawn)} reports drawn so far")
                later.shoot("canvas-mid-stroke.png", lambda pixel, drawn=drawn, ahead=ahead: (
                    require("B's live ink up to the pen", drawn, pixel, True),
                    require("B: no ink yet 80 ms ahead of the pen", ahead, pixel, False, share=1.0)))
                browser.evaluate(session, "penkitCanvas.state.thaw()")
            if i >= AWAY2 + 5 and not done_eraser:
                done_eraser = True
                browser.wait_for(session, f"penkitCanvas.state.finalized.includes({B_ID})", "stroke B finalized")
                wait_drawn(browser, session, "B drawn")
                later.shoot("canvas-marker.png", lambda pixel: require("B drawn with the marker", plan.b, pixel, True))
                pick(browser, session, "pixelEraser", ERASER_WIDTH)
            if done_eraser and not shot_e and i == freeze_e:
                # The pen stops here, still down past B's middle, until the page has erased up to it.
                shot_e = True
                x, y = plan.pos[i]
                browser.wait_for(session, "(d => d && d.pointerType === 'pen' && d.open && Math.hypot(d.last.x - %f, d.last.y - %f) < 1)"
                                          "(penkitCanvas.state.direct)" % (x, y), "the pixel eraser reaching the pen while down")
                direct = browser.evaluate(session, "penkitCanvas.state.direct")
                print(f"  the pen stopped at report {i} of {e_frames[0]}…{e_frames[-1]}: gesture {direct['kind']}, still down: {direct['open']}")
                if direct["kind"] != "pixelEraser" or not direct["open"]:
                    fail("the pen with the pixel eraser picked is not erasing while down")
                wait_drawn(browser, session, "the erasing so far drawn")
                gone_so_far, kept_so_far = plan.b_split([plan.pos[j] for j in e_frames if j <= i])
                later.shoot("canvas-erasing.png", lambda pixel: (
                    require("erasing live: B cleared where the eraser has passed", gone_so_far, pixel, False, share=1.0, r=1),
                    require("erasing live: B kept away from the eraser", kept_so_far, pixel, True)))
        print(f"  the test's pen ran at most {worst_lag * 1000:.0f} ms behind the trace's pace")
        later.run()
        if not (shot_b and shot_e):
            seen = browser.evaluate(session, "JSON.stringify({ready: penkitCanvas.state.ready, frames: penkitCanvas.state.frames,"
                                             " finalized: penkitCanvas.state.finalized, frozen: penkitCanvas.state.frozen})")
            fail(f"the page never froze {'mid-stroke' if not shot_b else 'mid-erase'} (the page: {seen})")
        browser.wait_for(session, "penkitCanvas.state.ended", "the end of the replay")
        gestures = browser.evaluate(session, "JSON.stringify([...penkitCanvas.gestures].map(([id, g]) => [id, g.kind, (g.points || []).length]))")
        browser.wait_for(session, "penkitCanvas.gestures.size === 0", f"every gesture ended (open: {gestures})")
        updates = browser.evaluate(session, "[penkitCanvas.state.updates, penkitCanvas.state.appliedUpdates, penkitCanvas.state.appliedEarly]")
        print(f"  late pressure: {updates[0]} updates delivered here; {updates[1]} applied to live ink already drawn, "
              f"{updates[2]} to frames the page's pen had not reached yet")
        # A (23 reports), C (15) and B (83) are ink: each of their samples' pressure came 150 ms late,
        # and every one reaches the ink (the pairing holds those that come before its map is ready or
        # before the page's pen reached the stroke).
        if updates[1] < 60:
            fail("force updates did not reach the live ink already drawn")
        if updates[1] + updates[2] < 23 + 15 + 83:
            fail(f"only {updates[1] + updates[2]} of the 121 force updates of A, C and B reached their ink")

        wait_drawn(browser, session, "the end drawn")
        gone, kept = plan.b_split(plan.eraser)
        _, _, pixel = shoot(browser, session, out, "canvas-erased.png")
        require("after the eraser: B cut", gone, pixel, False, share=1.0, r=1)
        require("after the eraser: B's rest", kept, pixel, True)
        require("after the eraser: A where it was moved", plan.a_moved, pixel, True)

        browser.evaluate(session, "document.getElementById('undo').click()")
        wait_drawn(browser, session, "the undo drawn")
        _, _, pixel = shoot(browser, session, out, "canvas-undone.png")
        require("undo: B whole again", gone + kept, pixel, True, share=0.95)
        require("undo: A still moved", plan.a_moved, pixel, True)
        require("undo: A not back", plan.a, pixel, False, share=1.0)

        browser.evaluate(session, "document.getElementById('redo').click()")
        wait_drawn(browser, session, "the redo drawn")
        _, _, pixel = shoot(browser, session, out, "canvas-redone.png")
        require("redo: B cut again", gone, pixel, False, share=1.0, r=1)

        browser.evaluate(session, "document.getElementById('save').click()")
        browser.wait_for(session, "penkitCanvas.state.saved !== null", "the save answered")
        saved = browser.evaluate(session, "penkitCanvas.state.saved")
        path = os.path.join(out, "drawing.penkit")
        deadline = time.monotonic() + WAIT
        while not (os.path.exists(path) and os.path.getsize(path) == saved["bytes"]):
            if time.monotonic() > deadline:
                fail(f"the saved drawing never reached {path} ({saved['bytes']} bytes expected)")
            time.sleep(0.05)
        print(f"  saved: {saved['bytes']} bytes, {saved['strokes']} strokes on the canvas")
        # Kept under a name of its own: a later save would download next to it.
        os.replace(path, os.path.join(out, "canvas-saved.penkit"))
        second = browser.open(url)
        browser.wait_for(second, "window.penkitCanvas !== undefined", "a second canvas")
        actions(browser, second)
        reopen_erase_export(browser, second, out, plan, gone, kept)
        ink_gallery(browser, second, out)
        chisel_roll(browser, second, out)
        ink_response_in_page(browser, second, penkit, url)
    finally:
        view.kill()
        view.wait()
    check_file(browser, penkit, out, plan, gone, kept)


INK_ROWS = ["pen", "pencil", "marker", "monoline", "fountainPen", "watercolor", "crayon"]


def actions(browser, session):
    """penkitd's `action` lines (real ones, Tests/Fixtures/messages) through the page's own message handler."""
    lines = {}
    for name in sorted(os.listdir("Tests/Fixtures/messages")):
        for line in open(os.path.join("Tests/Fixtures/messages", name)):
            if '"type":"action"' in line:
                lines.setdefault(json.loads(line)["action"], line.strip())
    switch = lines["switchEraser"]
    # The fixtures hold no switchPrevious or showInkAttributes: the same line with the other action.
    lines["switchPrevious"] = switch.replace('"switchEraser"', '"switchPrevious"')
    lines["showInkAttributes"] = switch.replace('"switchEraser"', '"showInkAttributes"')
    steps = [("switchEraser", "objectEraser", None), ("switchEraser", "pen", None), ("myApp.tool-2", "pen", None),
             ("showColorPalette", "pen", "palette"), ("switchEraser", "objectEraser", None), ("switchPrevious", "pen", None),
             ("showInkAttributes", "pen", "width")]
    browser.evaluate(session, "document.querySelector('[data-tool=pen]').click(); document.getElementById('attributes').open = false")
    for action, tool, focused in steps:
        line = lines[action] if action in lines else switch.replace('"switchEraser"', json.dumps(action))
        got = browser.evaluate(session, f"""(() => {{ document.getElementById('attributes').open = false; document.activeElement.blur();
            penkitCanvas.receive({json.dumps(line)});
            return [penkitCanvas.picker.tool, document.getElementById('attributes').open, document.activeElement.id || document.activeElement.dataset.color || ""]; }})()""")
        print(f"  action {action}: tool {got[0]}, colour and width {'open' if got[1] else 'closed'}, focus {got[2] or 'none'}")
        if got[0] != tool:
            fail(f"action {action}: the picker has {got[0]}, PencilKit would have {tool}")
        # The swatches are always in view: showColorPalette focuses them; showInkAttributes opens the rest.
        if (focused == "width") != got[1] or (focused == "width" and got[2] != "width") or (focused == "palette" and not got[2].startswith("#")):
            fail(f"action {action}: the colour and width controls are {'open' if got[1] else 'closed'}, focus on {got[2]!r}")


def wait_file(path, what):
    deadline = time.monotonic() + WAIT
    last = -1
    while True:
        size = os.path.getsize(path) if os.path.exists(path) else -1
        if size > 0 and size == last:
            return
        if time.monotonic() > deadline:
            fail(f"{what} never reached {path}")
        last = size
        time.sleep(0.2)


def reopen_erase_export(browser, session, out, plan, gone, kept):
    """The saved file opened on a fresh canvas (through the page's file input and the server), the
    object eraser dragged across C with the pen, then PNG exports with and without background."""
    document = browser.call("DOM.getDocument", {}, session)["root"]["nodeId"]
    node = browser.call("DOM.querySelector", {"nodeId": document, "selector": "#open"}, session)["nodeId"]
    browser.call("DOM.setFileInputFiles", {"files": [os.path.abspath(os.path.join(out, "canvas-saved.penkit"))], "nodeId": node}, session)
    browser.wait_for(session, "penkitCanvas.drawing.strokes.length === 4", "the saved drawing opened")
    wait_drawn(browser, session, "the opened drawing drawn")
    _, _, pixel = shoot(browser, session, out, "canvas-opened.png")
    require("opened: A where it was moved", plan.a_moved, pixel, True)
    require("opened: no A where it was", plan.a, pixel, False, share=1.0)
    require("opened: B cut", gone, pixel, False, share=1.0, r=1)
    require("opened: B's rest", kept, pixel, True)
    pick(browser, session, "objectEraser", 2.0)
    cx, cy = sum(p[0] for p in plan.c) / len(plan.c), sum(p[1] for p in plan.c) / len(plan.c)
    pen_stroke(browser, session, [(cx - 30 + 5 * k, cy - 30 + 5 * k) for k in range(13)], "the pen's object eraser pass taken")
    wait_drawn(browser, session, "the object eraser's pass drawn")
    _, _, pixel = shoot(browser, session, out, "canvas-object-erased.png")
    require("object eraser: C gone, all of it", dense(plan.c), pixel, False, share=1.0)
    require("object eraser: A untouched", plan.a_moved, pixel, True)
    # Lasso A again (with the pen), copy, paste (20 px down and right), delete the pasted copy.
    ax, ay = sum(p[0] for p in plan.a_moved) / len(plan.a_moved), sum(p[1] for p in plan.a_moved) / len(plan.a_moved)
    browser.evaluate(session, "document.querySelector('[data-tool=lasso]').click()")
    pen_stroke(browser, session, ring_around(ax, ay), "the pen's second lasso taken")
    browser.wait_for(session, "penkitCanvas.drawing.selection.size === 1", "the lasso selecting A again")
    browser.evaluate(session, "document.getElementById('copy').click(); document.getElementById('paste').click()")
    wait_drawn(browser, session, "the pasted copy drawn")
    pasted = [(x + 20, y + 20) for x, y in plan.a_moved]
    apart = [p for p in pasted if min(math.hypot(p[0] - q[0], p[1] - q[1]) for q in plan.a_moved) > 8]
    _, _, pixel = shoot(browser, session, out, "canvas-pasted.png")
    require("paste: the copy 20 px down and right", pasted, pixel, True)
    require("paste: A still where it was", plan.a_moved, pixel, True)
    browser.evaluate(session, "document.getElementById('delete').click()")
    wait_drawn(browser, session, "the deletion drawn")
    _, _, pixel = shoot(browser, session, out, "canvas-deleted.png")
    require("delete: the pasted copy gone", apart, pixel, False, share=1.0)
    require("delete: A kept", plan.a_moved, pixel, True)
    for transparent, name, background in ((True, "drawing-transparent.png", (255, 0, 255)), (False, "drawing-white.png", (255, 255, 255))):
        target = os.path.join(out, "drawing.png")
        if os.path.exists(target):
            os.remove(target)
        browser.evaluate(session, f"document.getElementById('transparent').checked = {'true' if transparent else 'false'}; document.getElementById('export-png').click()")
        wait_file(target, "the exported PNG")
        os.replace(target, os.path.join(out, name))
        # Shown over magenta: a transparent background lets it through.
        html = os.path.join(out, "png-view.html")
        with open(html, "w") as f:
            f.write(f'<!DOCTYPE html><body style="margin:0;background:#ff00ff"><img src="{name}" style="position:absolute;left:0;top:0"></body>')
        view = browser.open("file://" + os.path.abspath(html))
        browser.wait_for(view, "document.images[0] && document.images[0].complete && document.images[0].naturalWidth > 0", "the PNG loaded")
        _, _, pixel = shoot(browser, view, out, name.replace(".png", "-shown.png"))
        blank = [(x, y) for x, y in ((20, 20), (900, 650), (plan.a[0][0], plan.a[0][1]))]
        got = [pixel(int(x), int(y)) for x, y in blank]
        print(f"  PNG export, {'transparent' if transparent else 'white'} background: blank places show {got}")
        if not all(vbt.near(p, background, 30) for p in got):
            fail(f"PNG export: the background is not {'transparent' if transparent else 'white'}")
        require(f"PNG export ({'transparent' if transparent else 'white'}): A", plan.a_moved, pixel, True, paper=background)
        # Back to the canvas: a page in a background tab gets no display frames.
        browser.call("Page.close", {}, view)
        browser.call("Page.bringToFront", {}, session)
    # The SVG export (PenKit's renderer on the server) with the same checkbox.
    for transparent, name, background in ((True, "canvas-transparent.svg", MAGENTA), (False, "canvas-white.svg", WHITE)):
        target = os.path.join(out, "drawing.svg")
        if os.path.exists(target):
            os.remove(target)
        browser.evaluate(session, f"document.getElementById('transparent').checked = {'true' if transparent else 'false'}; document.getElementById('export-svg').click()")
        wait_file(target, "the exported SVG")
        os.replace(target, os.path.join(out, name))
        vx, vy, vw, vh = (float(v) for v in re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', open(os.path.join(out, name)).read()).groups())
        pixel = over_magenta(browser, out, name, vw * PX_PER_MM, vh * PX_PER_MM)
        browser.call("Page.bringToFront", {}, session)
        shift = lambda points: [(x - vx * PX_PER_MM, y - vy * PX_PER_MM) for x, y in points]
        blank = [(10, 10), (vw * PX_PER_MM - 10, vh * PX_PER_MM - 10)] + shift(plan.a)
        got = [pixel(int(x), int(y)) for x, y in blank]
        print(f"  SVG export, {'transparent' if transparent else 'white'} background: blank places show {got[:3]}…")
        if not all(vbt.near(p, background, 30) for p in got):
            fail(f"SVG export: the background is not {'transparent' if transparent else 'white'}")
        require(f"SVG export ({'transparent' if transparent else 'white'}): A", shift(plan.a_moved), pixel, True, paper=background)


def ink_gallery(browser, session, out):
    """Each of the seven inks on a fresh canvas: a wave from left to right with force rising from 0
    to 1 (the pencil and crayon tilted), drawn by the page's own renderer. Checks: every ink leaves
    ink along its path; the pen's and the pencil's ink is wider at full force than at light force."""
    rows = json.dumps(INK_ROWS)
    browser.evaluate(session, f"""(() => {{
      const c = penkitCanvas, rows = {rows};
      c.drawing.change([]);
      rows.forEach((type, r) => {{
        const points = [];
        for (let k = 0; k <= 200; k++) {{
          const u = k / 200;
          points.push({{ x: 60 + 800 * u, y: 50 + 90 * r + 18 * Math.sin(u * 4 * Math.PI), t: k * 8000, force: u,
                         altitude: type === "pencil" || type === "crayon" ? 1.0 : Math.PI / 2, azimuth: 0.3 }});
        }}
        const ink = {{ type, color: ["#000000", "#3a3a3a", "#ffd000", "#1e63d6", "#1b2a80", "#2f7fd0", "#d62828"][r], alpha: 1,
                       width: {{ pen: 2, pencil: 1, marker: 6, monoline: 2, fountainPen: 3, watercolor: 8, crayon: 4 }}[type] }};
        c.drawing.add(c.makeStroke(ink, points));
      }});
    }})()""")
    wait_drawn(browser, session, "the inks drawn")
    _, _, pixel = shoot(browser, session, out, "canvas-inks.png")
    for r, name in enumerate(INK_ROWS):
        path = [(60 + 800 * k / 200, 50 + 90 * r + 18 * math.sin(k / 200 * 4 * math.pi)) for k in range(201)]
        # Not the first tenth (force near 0: a pencil at no pressure is nearly invisible, as on paper).
        require(f"{name}: ink along its path", path[20:], pixel, True, share=0.95)

    def thickness(r, u):
        x = int(60 + 800 * u)
        y0 = 50 + 90 * r + 18 * math.sin(u * 4 * math.pi)
        return sum(1 for y in range(int(y0) - 40, int(y0) + 41) if not white(pixel(x, y)))
    for r in (0, 1):
        light, heavy = thickness(r, 0.25), thickness(r, 0.875)
        print(f"  {INK_ROWS[r]}: {light} px thick at force 0.25, {heavy} px at 0.875")
        if not heavy > light + 2:
            fail(f"{INK_ROWS[r]}: its width does not follow force")
    # Saved by name: a server whose PenKit knows all seven inks saves them; one that does not yet
    # must say which ink it does not know.
    answer = vst.evaluate_async(browser, session, "penkitCanvas.save().then(s => 'saved ' + s.strokes, e => 'refused: ' + e.message)")
    print(f"  saving the seven inks: {answer}")
    unknown = [name for name in INK_ROWS[3:] if f'not "{name} #' in answer]
    if answer != f"saved {len(INK_ROWS)}" and not (answer.startswith("refused: penkit view: stroke ") and len(unknown) == 1
                                                    and "ink must start with its type" in answer):
        fail(f"saving the seven inks: {answer}")


def chisel_roll(browser, session, out):
    """The canvas's marker turns its chisel with the points' barrel roll, as PenKit's does: two
    marker strokes (6 mm, force 0.5: a 6 mm nib, 1.8 mm thick) drawn along the chisel's own axis
    (45° up to the right), one with roll 0 (as thin as the nib's thickness) and one with the barrel
    a quarter turn round (as wide as the nib's length). Widths read from the pixels across each."""
    browser.evaluate(session, """(() => { const c = penkitCanvas; c.drawing.change([]);
      for (const [k, roll] of [[0, 0], [1, Math.PI / 2]]) {
        const points = [];
        for (let i = 0; i <= 100; i++) points.push({ x: 150 + 350 * k + 2 * i, y: 400 - 2 * i, t: i * 8000, force: 0.5,
                                                     altitude: Math.PI / 2, azimuth: 0, roll });
        c.drawing.add(c.makeStroke({ type: "marker", color: "#000000", alpha: 1, width: 6 }, points));
      } })()""")
    wait_drawn(browser, session, "the two chisel strokes drawn")
    _, _, pixel = shoot(browser, session, out, "canvas-chisel-roll.png")

    def across(cx, cy):
        # Along (1, 1)/√2, the stroke's normal, in 0.25 px steps: the inked length in mm.
        inked = sum(1 for k in range(-200, 201) if not white(pixel(int(round(cx + k * 0.25 / math.sqrt(2))), int(round(cy + k * 0.25 / math.sqrt(2))))))
        return inked * 0.25 / PX_PER_MM
    still, rolled = across(250, 300), across(600, 300)
    print(f"  marker along its chisel: {still:.2f} mm wide with roll 0, {rolled:.2f} mm with the barrel a quarter turn round")
    if not (abs(still - 1.8) < 0.6 and abs(rolled - 6.0) < 0.8):
        fail(f"the canvas's chisel does not turn with roll: {still:.2f} and {rolled:.2f} mm, not 1.8 and 6")


def ink_response_in_page(browser, session, penkit, url):
    """The page's own ink module (canvas-inks.js, as the canvas loaded it) against PenKit's ink
    response, `penkit ink-response` (scripts/ink-response-check.mjs has the checks)."""
    token = re.search(r"token=([^&]+)", url).group(1)
    table = subprocess.run([penkit, "ink-response"], check=True, capture_output=True, text=True).stdout
    source = open(os.path.join(HERE, "ink-response-check.mjs")).read().split("// node:")[0]
    source = source.replace("export function checkInkResponse", "function checkInkResponse")
    result = vst.evaluate_async(browser, session, "(async () => {" + source
                                + f"const inks = await import('./canvas-inks.js?token={token}');"
                                + f"return checkInkResponse({table}, inks); }})()")
    print(f"  the page's inks against penkit ink-response: {result['checked']} cases, {len(result['problems'])} differ")
    if result["checked"] < 1000 or result["problems"]:
        fail("the canvas's inks are not PenKit's: " + "; ".join(result["problems"][:5]))


def check_file(browser, penkit, out, plan, gone, kept):
    path, svg = os.path.join(out, "canvas-saved.penkit"), os.path.join(out, "drawing.svg")
    info = subprocess.run([penkit, "drawing", path, "--info", "--svg", svg], check=True, capture_output=True, text=True).stdout
    print("  penkit drawing --info: " + "; ".join(info.strip().splitlines()[:2]))
    text = open(svg).read()
    m = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', text)
    vx, vy, vw, vh = (float(v) for v in m.groups())
    # At 96 px to the inch the SVG's mm are the canvas's px again, shifted by its viewBox origin.
    html = os.path.join(out, "drawing-svg.html")
    with open(html, "w") as f:
        f.write(f'<!DOCTYPE html><body style="margin:0;background:#fff"><img src="drawing.svg" '
                f'style="position:absolute;left:0;top:0;width:{vw * PX_PER_MM}px;height:{vh * PX_PER_MM}px"></body>')
    session = browser.open("file://" + os.path.abspath(html))
    browser.wait_for(session, "document.images[0] && document.images[0].complete && document.images[0].naturalWidth > 0", "the SVG loaded")
    _, _, pixel = shoot(browser, session, out, "drawing-svg.png")
    shift = lambda points: [(x - vx * PX_PER_MM, y - vy * PX_PER_MM) for x, y in points]
    require("reopened SVG: A where it was moved", shift(plan.a_moved), pixel, True)
    require("reopened SVG: no A where it was", shift(plan.a), pixel, False, share=1.0)
    require("reopened SVG: B cut by the eraser", shift(gone), pixel, False, share=1.0, r=1)
    require("reopened SVG: B's rest", shift(kept), pixel, True)
    require("reopened SVG: C", shift(plan.c), pixel, True)
    # The same file as SVG with --transparent, shown over magenta: the magenta shows through where no
    # ink is, and the ink is where it was.
    clear = os.path.join(out, "drawing-transparent.svg")
    subprocess.run([penkit, "drawing", path, "--svg", clear, "--transparent"], check=True, capture_output=True)
    if 'fill="white"' in open(clear).read():
        fail("penkit drawing --svg --transparent still has a white background")
    pixel = over_magenta(browser, out, "drawing-transparent.svg", vw * PX_PER_MM, vh * PX_PER_MM)
    blank = [(10, 10), (vw * PX_PER_MM - 10, vh * PX_PER_MM - 10)] + shift(plan.a)
    got = [pixel(int(x), int(y)) for x, y in blank]
    if not all(vbt.near(p, (255, 0, 255), 30) for p in got):
        fail(f"penkit drawing --svg --transparent: blank places are not transparent: {got[:4]}")
    print(f"  penkit drawing --svg --transparent over magenta: {len(got)} blank places magenta")
    require("transparent SVG: A where it was moved", shift(plan.a_moved), pixel, True, paper=MAGENTA)
    require("transparent SVG: B's rest", shift(kept), pixel, True, paper=MAGENTA)


def over_magenta(browser, out, name, width, height):
    """The image file `name` (in out) shown at width × height CSS px over magenta, in Chromium: a
    transparent background lets the magenta through. The screenshot's pixels."""
    html = os.path.join(out, "over-magenta.html")
    with open(html, "w") as f:
        f.write(f'<!DOCTYPE html><body style="margin:0;background:#ff00ff"><img src="{name}" '
                f'style="position:absolute;left:0;top:0;width:{width}px;height:{height}px"></body>')
    view = browser.open("file://" + os.path.abspath(html))
    browser.wait_for(view, "document.images[0] && document.images[0].complete && document.images[0].naturalWidth > 0", f"{name} loaded")
    _, _, pixel = shoot(browser, view, out, name.replace(".", "-") + "-over-magenta.png")
    browser.call("Page.close", {}, view)
    return pixel


ERASER_TRACE = "traces/wacom-cintiq-22hdt-pen.evemu"
ERASER_MAP = (9.0, 0.0, 0.0, 9.0, 100 - 9.0 * 350, 50 - 9.0 * 29)


def eraser_end(browser, penkit, out):
    """The pen's eraser end: the Cintiq trace's first 5.6 s hold strokes of its eraser (tool type
    `eraser` in penkit's frames) and one of its airbrush. With the pen ink picked (and the pixel
    eraser picked before it), a line placed across the eraser's third stroke is cut where that
    stroke passes; the airbrush stroke draws the pen's ink."""
    lines = subprocess.run([penkit, "replay", "--json", ERASER_TRACE], check=True, capture_output=True, text=True).stdout
    frames = [json.loads(l) for l in lines.splitlines() if l.startswith('{"type":"frame"')]
    t0 = frames[0]["sample"]["t"]
    frames = [f for f in frames if f["sample"]["t"] - t0 < 5_600_000]
    pos = [place(ERASER_MAP, f["sample"]["x"], f["sample"]["y"]) for f in frames]
    by_stroke = {}
    for i, f in enumerate(frames):
        if "stroke" in f:
            by_stroke.setdefault(f["stroke"], []).append(i)
    tools = {sid: frames[ix[0]]["tool"]["type"] for sid, ix in by_stroke.items()}
    if [tools[k] for k in sorted(tools)] != ["eraser", "airbrush", "eraser", "eraser"]:
        fail(f"{ERASER_TRACE}: the first strokes' tools are {tools}")
    cut = [pos[i] for i in by_stroke[3]]
    cx = sum(p[0] for p in cut) / len(cut)
    cy = sum(p[1] for p in cut) / len(cut)
    line = [(cx, cy - 60 + k) for k in range(121)]   # page px, across the eraser's path
    view, url = vbt.start_view(penkit, ERASER_TRACE, realtime=True)
    try:
        session = browser.open(url)
        browser.wait_for(session, "window.penkitCanvas !== undefined && penkitCanvas.state.firstFrame !== null", "the eraser-end canvas")
        browser.evaluate(session, f"""(() => {{ const c = penkitCanvas;
            document.querySelector('[data-tool=pixelEraser]').click();
            const w = document.getElementById('width'); w.value = 3; w.dispatchEvent(new Event('input'));
            document.querySelector('[data-tool=pen]').click();
            c.drawing.add(c.makeStroke({{ type: "pen", color: "#000000", alpha: 1, width: 1 }},
              {json.dumps([{"x": x, "y": y, "t": k * 1000, "force": 0.5} for k, (x, y) in enumerate(line)])}));
        }})()""")
        since, first_t = browser.evaluate(session, "[performance.now() - penkitCanvas.state.firstFrame.at, penkitCanvas.state.firstFrame.t]")
        base, start = time.time() + 1000.0, time.monotonic() - since / 1000 - (first_t - t0) / 1e6
        pressed = False
        for i, f in enumerate(frames):
            delay = start + (f["sample"]["t"] - t0) / 1e6 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            contact = "stroke" in f
            kind = "mousePressed" if contact and not pressed else "mouseReleased" if pressed and not contact else "mouseMoved"
            vst.dispatch(browser, session, kind, *pos[i], f, base, t0, contact)
            pressed = contact
        # The pen leaves this window: the pairing settles the strokes it holds.
        vst.dispatch(browser, session, "mouseMoved", OTHER_X, 400.0, frames[-1], base, t0, False)
        browser.wait_for(session, "[1, 2, 3, 4].every(id => penkitCanvas.state.finalized.includes(id) || !penkitCanvas.gestures.has(id))"
                                  " && penkitCanvas.state.finalized.includes(2) && penkitCanvas.gestures.size === 0",
                         "the eraser strokes and the airbrush stroke settled")
        wait_drawn(browser, session, "the eraser end's work drawn")
        _, _, pixel = shoot(browser, session, out, "canvas-eraser-end.png")
    finally:
        view.kill()
        view.wait()
    radius = ERASER_WIDTH * PX_PER_MM / 2
    gone = [p for p in line if vst.distance_to_polyline(p, cut) <= radius - 2]
    kept = [p for p in line if vst.distance_to_polyline(p, cut) > radius + 10]
    print(f"  {ERASER_TRACE}: eraser-end strokes {[k for k, v in tools.items() if v == 'eraser']}, airbrush stroke 2; pen ink picked")
    require("eraser end: the line cut where the eraser passed", gone, pixel, False, share=1.0, r=1)
    require("eraser end: the line kept elsewhere", kept, pixel, True)
    require("eraser end: the airbrush's stroke in the pen ink", [pos[i] for i in by_stroke[2]], pixel, True)


def main():
    penkit, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        browser = vbt.Browser(profile)
        try:
            browser.call("Browser.getVersion")
            print(f"{TRACE} at its recorded pace; the page's own pen driven along it, placed ×{S:g}, the window moved twice")
            run(browser, penkit, out)
            eraser_end(browser, penkit, out)
        finally:
            browser.close()
    print(f"view canvas browser test: passed; screenshots in {out}")


if __name__ == "__main__":
    main()
