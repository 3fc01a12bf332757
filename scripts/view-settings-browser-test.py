#!/usr/bin/env python3
"""`penkit view`'s settings page (`/settings`, docs/view.md) in headless Chromium, against a real
penkitd replaying a real trace in a loop (the Intuos4's one long stroke, again and again):

1. the page lists the tablet and the pen with its settings, the curve the diagonal (linear);
2. the pen's first control point is dragged (DevTools mouse events) up and left; on release the
   page sends penkitd a `settings` request, which penkitd saves and applies;
3. penkitd's frames change by exactly that curve: the forces of a later loop of the stroke are the
   curve's y at the forces of an earlier loop (|error| ≤ 0.002, the value kept to 3 decimals);
4. the screenshot shows it: the handle where it was dropped, the curve through the Bézier's points;
5. penkitd restarts on the same state directory: the page, reloaded, shows the same curve.

Every check reads penkitd's own frames or the screenshot's pixels. Screenshots go to OUTPUT_DIR.
Usage: view-settings-browser-test.py PENKIT_BINARY OUTPUT_DIR"""
import importlib.util, json, os, re, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("view_browser_test", os.path.join(HERE, "view-browser-test.py"))
vbt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vbt)
fail, WAIT = vbt.fail, vbt.WAIT

TRACE = "traces/wacom-intuos4-6x9-stylus-drag.evemu"
SIZE, PAD = 240, 12          # the curve editor's size and inset (settings.js)
TARGET = (0.05, 0.85)        # where the first control point is dropped (pressure, force)
BLUE, MAGENTA = (0x1e, 0x63, 0xd6), (0xe0, 0x10, 0x9a)


def dist(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def bezier_y(c, x):
    b = lambda t, p1, p2: 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3
    lo, hi = 0.0, 1.0
    for _ in range(60):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if b(m, c[0], c[2]) < x else (lo, m)
    return b((lo + hi) / 2, c[1], c[3])


def bezier_point(c, t):
    b = lambda p1, p2: 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3
    return b(c[0], c[2]), b(c[1], c[3])


def start_penkitd(penkitd, sock, state):
    log = open(os.path.join(state, "penkitd.log"), "a")
    process = subprocess.Popen([penkitd, "--config", "/dev/null", "--socket", sock, "--state-dir", state, "--journal-fsync", "never",
                                "--replay", TRACE, "--realtime", "--loop"], stdout=log, stderr=log)
    deadline = time.monotonic() + WAIT
    while not os.path.exists(sock):
        if time.monotonic() > deadline or process.poll() is not None:
            fail(f"penkitd did not start: {open(os.path.join(state, 'penkitd.log')).read()[-600:]}")
        time.sleep(0.02)
    return process


def stroke_forces(sock, count):
    """The contact forces of `count` whole strokes penkitd sends from now on, one list per stroke."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    s.sendall(b'{"type":"subscribe","version":1,"channels":["frames"]}\n')
    f, strokes, current, seen_gap = s.makefile("rb"), [], None, False
    deadline = time.monotonic() + WAIT
    for line in f:
        if time.monotonic() > deadline:
            fail("penkitd's strokes did not come")
        m = json.loads(line)
        if m.get("type") != "frame":
            continue
        if "stroke" not in m:
            seen_gap = True          # hovering: the next contact starts a whole stroke
            if current:
                strokes.append(current)
                current = None
                if len(strokes) == count:
                    break
            continue
        if seen_gap:
            current = (current or []) + [m["sample"]["force"]]
    s.close()
    return strokes


def curve_box(browser, session):
    return browser.evaluate(session, """(() => { const b = document.querySelector('[data-tool=pen] svg.curve').getBoundingClientRect();
        return [b.left, b.top]; })()""")


def check_curve_pixels(pixel, box, c, label):
    inner = SIZE - 2 * PAD
    on = lambda x, y: (round(box[0] + PAD + x * inner), round(box[1] + PAD + (1 - y) * inner))
    handles = [on(c[0], c[1]), on(c[2], c[3]), on(0, 0), on(1, 1)]
    # Where a handle (or an end) sits on the line, the handle covers it: those points are not the line's to show.
    points = [p for p in (on(*bezier_point(c, t / 40)) for t in range(1, 40)) if min(dist(p, h) for h in handles) > 10]
    near = [p for p in points if any(dist(pixel(p[0] + dx, p[1] + dy), BLUE) < 60 for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2))]
    print(f"  {label}: the curve's line through {len(near)} of {len(points)} of the Bézier's points")
    if len(near) < len(points) - 1:
        fail(f"{label}: the drawn curve misses the Bézier {c}: {len(near)} of {len(points)} points")
    hx, hy = on(c[0], c[1])
    if dist(pixel(hx, hy), MAGENTA) > 60:
        fail(f"{label}: no handle at the first control point ({hx}, {hy}): {pixel(hx, hy)}")


def run(browser, penkit, out):
    penkitd = os.path.join(os.path.dirname(penkit), "penkitd")
    with tempfile.TemporaryDirectory() as state:
        sock = os.path.join(state, "penkit.sock")
        daemon = start_penkitd(penkitd, sock, state)
        view = subprocess.Popen([penkit, "view", "--socket", sock, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
        try:
            url = None
            for _ in range(6):
                line = view.stdout.readline()
                m = re.search(r"(http://127\.0\.0\.1:\d+/settings\?token=[0-9a-f]{64})", line)
                if m:
                    url = m.group(1)
                    break
            if not url:
                fail("penkit view printed no settings URL")
            before = stroke_forces(sock, 1)[0]
            session = browser.open(url)
            # Tall enough for the tablet's settings and the pen's curve, test area and buttons at once.
            browser.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session)
            browser.wait_for(session, "document.querySelector('[data-tool=pen] svg.curve') !== null", "the pen's curve")
            box = curve_box(browser, session)
            _, _, pixel = browser.screenshot(session, os.path.join(out, "settings-linear.png"))
            check_curve_pixels(pixel, box, [0, 0, 1, 1], "before")

            # Drag the first control point to TARGET with the mouse, as a person would.
            handle = browser.evaluate(session, """(() => { const b = document.querySelector('[data-tool=pen] [data-handle="1"]').getBoundingClientRect();
                return [b.left + b.width / 2, b.top + b.height / 2]; })()""")
            inner = SIZE - 2 * PAD
            to = (box[0] + PAD + TARGET[0] * inner, box[1] + PAD + (1 - TARGET[1]) * inner)
            mouse = lambda kind, x, y, buttons: browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                                                          "buttons": buttons, "clickCount": 1}, session)
            mouse("mousePressed", *handle, 1)
            for k in range(1, 11):
                mouse("mouseMoved", handle[0] + (to[0] - handle[0]) * k / 10, handle[1] + (to[1] - handle[1]) * k / 10, 1)
            mouse("mouseReleased", *to, 0)
            browser.wait_for(session, "penkitSettings.state.lastAnswer && penkitSettings.state.lastAnswer.type === 'settings-saved'", "penkitd saving the curve")
            browser.wait_for(session, "/override/.test(document.querySelector('[data-tool=pen]').textContent)", "the curve shown as an override")
            c = [float(v) for v in browser.evaluate(session, "document.querySelector('[data-tool=pen] svg.curve').dataset.curve").split(",")]
            print(f"  dragged: penkitd keeps pressure-curve = {c}")
            if dist(c[:2], TARGET) > 0.02:
                fail(f"the curve penkitd keeps, {c}, does not have the point dropped at {TARGET}")

            after = stroke_forces(sock, 1)[0]
            if len(after) != len(before):
                fail(f"a later loop of the stroke has {len(after)} contact frames, the earlier {len(before)}")
            worst = max(abs(bezier_y(c, b) - a) for b, a in zip(before, after))
            print(f"  penkitd's frames: {len(after)} contact forces, each the curve's y at the earlier loop's force (worst |error| {worst:.5f})")
            if worst > 0.002:
                fail(f"penkitd's forces do not follow the dragged curve (worst error {worst})")

            _, _, pixel = browser.screenshot(session, os.path.join(out, "settings-dragged.png"))
            check_curve_pixels(pixel, curve_box(browser, session), c, "after the drag")

            # penkitd restarts on the same state directory: the change is still there.
            daemon.terminate()
            daemon.wait(timeout=WAIT)
            daemon = start_penkitd(penkitd, sock, state)
            # The old page is marked, so that the wait is on the reloaded one.
            browser.evaluate(session, "window.beforeRestart = true; location.reload(), true")
            browser.wait_for(session, "!window.beforeRestart && window.penkitSettings && document.querySelector('[data-tool=pen] svg.curve') !== null",
                             "the page after penkitd's restart")
            again = [float(v) for v in browser.evaluate(session, "document.querySelector('[data-tool=pen] svg.curve').dataset.curve").split(",")]
            if again != c:
                fail(f"after penkitd's restart the curve is {again}, not {c}")
            # The test area as the pen presses: the shaped force's bar above the raw pressure's (the
            # curve is above the diagonal), each in its colour, and the live point on the curve.
            browser.wait_for(session, "Number(document.querySelector('[data-tool=pen] .shaped').getAttribute('height')) > 60",
                             "the pen pressing in the test area")
            bars = browser.evaluate(session, """(() => { const r = (s) => { const b = document.querySelector('[data-tool=pen] ' + s).getBoundingClientRect();
                return [b.left + b.width / 2, b.top, b.height]; }; return [r('.raw'), r('.shaped')]; })()""")
            _, _, pixel = browser.screenshot(session, os.path.join(out, "settings-restarted.png"))
            check_curve_pixels(pixel, curve_box(browser, session), c, "after penkitd's restart")
            (rx, ry, rh), (sx, sy, sh) = bars
            print(f"  test area: shaped force {sh:.0f} px, raw pressure {rh:.0f} px tall")
            if not sh > rh:
                fail(f"the shaped bar ({sh} px) is not above the raw one ({rh} px) under a curve above the diagonal")
            # (The bars move with the pen; their colours are not read off a later screenshot.)

            # The pen's lower barrel button made a right click, picked as a person would: penkitd
            # keeps it for the pen, as an override.
            browser.evaluate(session, """(() => { window.beforeButton = penkitSettings.state.lastAnswer;
                const s = document.querySelector('[data-tool=pen] select[data-key="button-1"]');
                s.value = 'right'; s.dispatchEvent(new Event('change')); return true; })()""")
            browser.wait_for(session, "penkitSettings.state.lastAnswer !== window.beforeButton && penkitSettings.state.lastAnswer.type === 'settings-saved'",
                             "penkitd saving the button")
            rows = json.loads(subprocess.run([penkit, "settings", "get", "button-1", "--json", "--socket", sock],
                                             capture_output=True, text=True, timeout=WAIT).stdout or "[]")
            pen_rows = [r for r in rows if r.get("key") == "button-1" and "pen" in r.get("scope", "")]
            print(f"  button: penkit settings get button-1 says {pen_rows}")
            if not any(r.get("value") == "right" and r.get("origin", "").startswith("override ") for r in pen_rows):
                fail(f"the pen's button-1 picked in the page is not penkitd's: {rows}")

            # The tablet kept out of the virtual tablet, unticked as a person would: penkitd keeps it
            # for the tablet's [device VID:PID] section.
            browser.evaluate(session, """(() => { window.beforeTablet = penkitSettings.state.lastAnswer;
                const c = document.querySelector('[data-device] input[data-key="virtual-tablet"]');
                c.checked = false; c.dispatchEvent(new Event('change')); return true; })()""")
            browser.wait_for(session, "penkitSettings.state.lastAnswer !== window.beforeTablet && penkitSettings.state.lastAnswer.type === 'settings-saved'",
                             "penkitd saving the tablet's virtual-tablet")
            rows = json.loads(subprocess.run([penkit, "settings", "get", "virtual-tablet", "--json", "--socket", sock],
                                             capture_output=True, text=True, timeout=WAIT).stdout or "[]")
            tablet_rows = [r for r in rows if r.get("scope") == "device 1"]
            print(f"  tablet: penkit settings get virtual-tablet says {tablet_rows}")
            if not any(r.get("value") == "false" and r.get("origin", "").startswith("override ") for r in tablet_rows):
                fail(f"the tablet's virtual-tablet unticked in the page is not penkitd's: {rows}")
        finally:
            view.kill()
            view.wait()
            daemon.kill()
            daemon.wait()


def main():
    vbt.run_in_browser("view settings browser test", run)


if __name__ == "__main__":
    main()
