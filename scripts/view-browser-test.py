#!/usr/bin/env python3
"""`penkit view` in a real browser: Debian's chromium, headless, driven over the DevTools
protocol (on a pipe, standard library only), opens the page while a trace replays, takes
screenshots and checks their pixels against real libinput's output for the same trace
(Tests/Fixtures/libinput/*.jsonl), never against the page's own numbers.

Usage: view-browser-test.py PENKIT_BINARY OUTPUT_DIR
Screenshots are written to OUTPUT_DIR (make puts them under .build/)."""
import base64, json, math, os, re, signal, struct, subprocess, sys, tempfile, threading, time, zlib

WAIT = 90  # seconds; bounds a failure only, every wait is on a condition

PREDICTED = (0xE0, 0x10, 0x9A)
LIVE = (0x1E, 0x63, 0xD6)
ESTIMATED = (0xF0, 0x8C, 0x00)
LATE_PRESSURE_MS = 40


def fail(message):
    print(f"view browser test: FAIL: {message}")
    sys.exit(1)


# --- expected values from real libinput and the trace file ---------------------------------

def libinput_contacts(fixture):
    """Positions (mm) where a tool that inks touched, and the number of tip-downs of any tool,
    from real libinput's events. An eraser's contacts are left out: an eraser stroke leaves no ink."""
    points, strokes = [], 0
    with open(fixture) as f:
        for line in f:
            e = json.loads(line)
            if e["type"] == "tip" and e["state"] == "down":
                strokes += 1
            if e.get("tip") == "down" and e["type"] in ("tip", "axis") and e["tool"]["type"] != "eraser":
                points.append((e["x"], e["y"]))
    return points, strokes


def sensor_mm(trace):
    """The sensor's width and height in mm from the evemu header: (max - min) / resolution."""
    axes = {}
    with open(trace) as f:
        for line in f:
            m = re.match(r"A: (0[01]) (-?\d+) (-?\d+) \d+ \d+ (\d+)", line)
            if m:
                axes[m.group(1)] = (int(m.group(3)) - int(m.group(2))) / int(m.group(4))
    return axes["00"], axes["01"]


# --- PNG (8-bit RGB/RGBA, as Chromium writes) -----------------------------------------------

def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"unsupported PNG {depth} bit, type {ctype}"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


# --- Chromium over the DevTools pipe ----------------------------------------------------------

class Browser:
    def __init__(self, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child_fds():  # the DevTools pipe is fd 3 (commands in) and fd 4 (answers out)
            # Copies first: the pipes may themselves be fds 3 and 4 (and dup2 onto itself keeps close-on-exec).
            commands, answers = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        args = ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--window-size=1280,800", "--force-device-scale-factor=1",
                "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "about:blank"]
        # A process group of its own, so that close() can end Chromium's helpers too.
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False, start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id, self.answers, self.lock = 0, {}, threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                m = json.loads(message)
                if "id" in m:
                    with self.lock:
                        self.answers[m["id"]] = m
                        self.lock.notify_all()

    def call(self, method, params=None, session=None):
        self.next_id += 1
        ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        with self.lock:
            if not self.lock.wait_for(lambda: ident in self.answers, timeout=WAIT):
                fail(f"chromium did not answer {method}")
            answer = self.answers.pop(ident)
        if "error" in answer:
            fail(f"{method}: {answer['error']}")
        return answer["result"]

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        return self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def evaluate(self, session, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        return result["result"].get("value")

    def wait_for(self, session, expression, what):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.evaluate(session, expression):
                return
            time.sleep(0.02)
        fail(f"the page never got to: {what}")

    def screenshot(self, session, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"}, session)["data"])
        with open(path, "wb") as f:
            f.write(data)
        return decode_png(data)

    def close(self):
        # Chromium's helpers (renderer, zygote, crash handler) outlive a killed parent for a while
        # and keep writing into the profile, which is removed next: ask Chromium to quit, end its
        # whole process group, and wait until no live process of the group is left.
        try:
            os.write(self.to_chrome, json.dumps({"id": self.next_id + 1, "method": "Browser.close"}).encode() + b"\0")
            self.process.wait(timeout=WAIT)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        deadline = time.monotonic() + WAIT
        while live_in_group(self.process.pid):
            if time.monotonic() > deadline:
                fail("Chromium's processes did not end after SIGKILL")
            time.sleep(0.02)


def live_in_group(group):
    """Whether a process of this process group is still running (zombies, waiting to be reaped, are not)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command name: the state, the parent, the process group.
        if fields[0] != "Z" and int(fields[2]) == group:
            return True
    return False


# --- pixel checks ------------------------------------------------------------------------------

def near(pixel, color, tolerance=60):
    return sum((a - b) ** 2 for a, b in zip(pixel, color)) <= tolerance ** 2


def is_ink(pixel):  # anything clearly darker than the white canvas
    return sum(pixel) / 3 < 200


class Canvas:
    """Maps mm to screenshot pixels by the page's documented rule: the sensor's top-left at the
    canvas's top-left, one scale for both axes, the largest that fits the whole sensor."""
    def __init__(self, rect, sensor):
        self.left, self.top, self.width, self.height = rect["left"], rect["top"], rect["width"], rect["height"]
        self.scale = min(self.width / sensor[0], self.height / sensor[1])

    def map(self, x, y):
        return self.left + x * self.scale, self.top + y * self.scale

    def pixels(self):
        for y in range(int(self.top), int(self.top + self.height)):
            for x in range(int(self.left), int(self.left + self.width)):
                yield x, y


def distance_to_path(px, py, path):
    return min(math.hypot(px - x, py - y) for x, y in path)


def coarse(path, step=1.5):
    """Path points thinned to about one per `step` pixels, so that distance checks stay quick."""
    kept = []
    for p in path:
        if not kept or math.hypot(p[0] - kept[-1][0], p[1] - kept[-1][1]) >= step:
            kept.append(p)
    return kept


def check_ink(shot, canvas, contacts, label, near_px=3, allowed_stray=0.02):
    width, height, pixel = shot
    path = coarse([canvas.map(x, y) for x, y in contacts])
    inked = [(x, y) for x, y in canvas.pixels() if is_ink(pixel(x, y))]
    if not inked:
        fail(f"{label}: no ink on the canvas")
    hits = 0
    for cx, cy in path:
        found = any(is_ink(pixel(x, y))
                    for x in range(int(cx) - near_px, int(cx) + near_px + 1)
                    for y in range(int(cy) - near_px, int(cy) + near_px + 1)
                    if 0 <= x < width and 0 <= y < height)
        hits += found
    covered = hits / len(path)
    stray = sum(1 for x, y in inked if distance_to_path(x, y, path) > 8) / len(inked)
    print(f"  {label}: {len(inked)} ink pixels; {covered:.1%} of libinput's contact points have ink within "
          f"{near_px} px; {stray:.2%} of ink pixels lie over 8 px from libinput's path")
    if covered < 0.95:
        fail(f"{label}: ink missing where libinput saw the pen down ({covered:.1%} < 95%)")
    if stray > allowed_stray:
        fail(f"{label}: ink where libinput saw no contact ({stray:.2%} > {allowed_stray:.0%})")


def count_colour(shot, canvas, color):
    _, _, pixel = shot
    return [(x, y) for x, y in canvas.pixels() if near(pixel(x, y), color)]


# --- the runs ---------------------------------------------------------------------------------

def start_view(penkit, trace, realtime, socket=None, extra=()):
    args = [penkit, "view", "--listen", "127.0.0.1:0"]
    args += ["--socket", socket] if socket else ["--replay", trace] + (["--realtime"] if realtime else [])
    args += list(extra)
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    m = re.match(r"penkit view: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})$", line.strip())
    if not m:
        process.kill()
        fail(f"penkit view printed no URL: {line!r}")
    return process, m.group(1)


def debug_page(url):
    """The tablet-space debug view (the canvas is at /, docs/view.md)."""
    return url.replace("/?token=", "/debug?token=")


def canvas_of(browser, session, trace, sensor=None):
    rect = browser.evaluate(session, "(() => { const r = document.getElementById('ink').getBoundingClientRect();"
                                     " return {left: r.left, top: r.top, width: r.width, height: r.height}; })()")
    return Canvas(rect, sensor or sensor_mm(trace))


def bundled(name):
    """A bundled trace, real libinput's contact points for it and its number of tip-downs."""
    contacts, strokes = libinput_contacts(f"Tests/Fixtures/libinput/{name}.jsonl")
    return f"traces/{name}.evemu", contacts, strokes


def check_finalized(browser, session, strokes, label):
    shown = browser.evaluate(session, "document.getElementById('finalized').textContent")
    print(f"  {label}: the page shows {shown} finalized stroke(s)")
    if shown != str(strokes):
        fail(f"{label}: the page shows {shown} finalized strokes; libinput saw {strokes} tip-downs")
    # Finalized ink is the stroke model's SVG rendering once it has loaded (not the page's stand-in).
    browser.wait_for(session, f"penkitView.finalizedFromModel === {strokes}", "the renderer's SVG for every finalized stroke")


def realtime_run(browser, penkit, out):
    trace, contacts, strokes = bundled("wacom-intuos4-6x9-stylus-drag")
    # Pressure arrives late, so that the newest samples' force is an estimate awaiting its update.
    view, url = start_view(penkit, trace, realtime=True, extra=["--late-pressure", str(LATE_PRESSURE_MS)])
    try:
        print(f"{trace} at its recorded pace, pressure {LATE_PRESSURE_MS} ms late "
              f"({len(contacts)} contact events, {strokes} stroke(s) in libinput's output)")
        session = browser.open(debug_page(url))
        browser.wait_for(session, "window.penkitView !== undefined", "its script running")
        # Mid-stroke: once a good part of the stroke is drawn, freeze the page at the next frame
        # that draws a prediction, and look at it.
        browser.wait_for(session, "penkitView.liveSamples >= 120", "120 samples of live ink")
        browser.evaluate(session, "penkitView.pauseWhenPredicting()")
        browser.wait_for(session, "penkitView.paused", "a frame with predicted samples")
        canvas = canvas_of(browser, session, trace)
        shot = browser.screenshot(session, os.path.join(out, "view-mid-stroke.png"))
        path = coarse([canvas.map(x, y) for x, y in contacts])
        predicted = count_colour(shot, canvas, PREDICTED)
        live = count_colour(shot, canvas, LIVE)
        estimated = count_colour(shot, canvas, ESTIMATED)
        far = [p for p in predicted if distance_to_path(p[0], p[1], path) > 25]
        far_estimates = [p for p in estimated if distance_to_path(p[0], p[1], path) > 10]
        print(f"  mid-stroke: {len(predicted)} pixels in the predicted colour ({len(far)} over 25 px from libinput's path), "
              f"{len(live)} in the live-ink colour, {len(estimated)} in the estimate colour "
              f"({len(far_estimates)} over 10 px from the path)")
        if len(predicted) < 10:
            fail("mid-stroke: no predicted segment in its own colour")
        if len(far) > len(predicted) * 0.1:
            fail("mid-stroke: the predicted segment is not near where the pen went")
        if len(live) < 50:
            fail("mid-stroke: no live ink in its own colour")
        if len(estimated) < 10 or far_estimates:
            fail("mid-stroke: samples awaiting their late pressure are not marked on the path")
        browser.evaluate(session, "penkitView.resume()")
        browser.wait_for(session, "penkitView.ended", "the end of the replay")
        shot = browser.screenshot(session, os.path.join(out, "view-final.png"))
        check_finalized(browser, session, strokes, "finished")
        check_ink(shot, canvas, contacts, "finished")
        if count_colour(shot, canvas, PREDICTED):
            fail("finished: predicted samples still drawn after the pen was lifted")
        if count_colour(shot, canvas, ESTIMATED):
            fail("finished: estimate marks left after every update arrived")
    finally:
        view.kill()


def all_at_once_run(browser, penkit, out):
    trace, contacts, strokes = bundled("wacom-cintiq-22hdt-pen")
    view, url = start_view(penkit, trace, realtime=False)
    try:
        print(f"{trace} all at once ({len(contacts)} contact events, {strokes} strokes in libinput's output)")
        session = browser.open(debug_page(url))
        browser.wait_for(session, "window.penkitView !== undefined && penkitView.ended", "the end of the replay")
        canvas = canvas_of(browser, session, trace)
        shot = browser.screenshot(session, os.path.join(out, "view-many-strokes.png"))
        check_finalized(browser, session, strokes, "many strokes")
        check_ink(shot, canvas, contacts, "many strokes")
    finally:
        view.kill()


def daemon_run(browser, penkit, out):
    """penkitd replays the trace at its recorded pace once the page's client subscribes; the page
    sees what any client of the daemon sees. Live input has no sensor size, so the page's area
    grows in 50 mm steps to cover what it has seen (docs/view.md): it must cover libinput's points."""
    trace, contacts, strokes = bundled("wacom-intuos4-6x9-stylus-drag")
    penkitd = os.path.join(os.path.dirname(penkit), "penkitd")
    with tempfile.TemporaryDirectory() as run:
        socket_path = os.path.join(run, "penkit.sock")
        # Its stroke journal in the temporary directory: a journal kept from an earlier run would
        # add that run's strokes to the history the page is sent.
        daemon = subprocess.Popen([penkitd, "--config", "/dev/null", "--socket", socket_path, "--state-dir", run,
                                   "--replay", trace,
                                   "--realtime", "--wait-clients", "1", "--exit-after-replay", "--log-level", "warning"])
        view = None
        try:
            deadline = time.monotonic() + WAIT
            while not os.path.exists(socket_path):
                if time.monotonic() > deadline or daemon.poll() is not None:
                    fail("penkitd did not create its socket")
                time.sleep(0.02)
            print(f"penkitd replaying {trace} at its recorded pace; penkit view as its client")
            view, url = start_view(penkit, None, realtime=False, socket=socket_path)
            session = browser.open(debug_page(url))
            browser.wait_for(session, "window.penkitView !== undefined && penkitView.ended", "penkitd's shutdown")
            check_finalized(browser, session, strokes, "from penkitd")
            area = browser.evaluate(session, "penkitView.area")
            print(f"  from penkitd: the page's area grew to {area['width']} x {area['height']} mm")
            if area["width"] % 50 or area["height"] % 50 or area["width"] < max(x for x, _ in contacts) \
                    or area["height"] < max(y for _, y in contacts):
                fail(f"the page's area {area} does not cover libinput's points in 50 mm steps")
            canvas = canvas_of(browser, session, None, (area["width"], area["height"]))
            shot = browser.screenshot(session, os.path.join(out, "view-daemon.png"))
            check_ink(shot, canvas, contacts, "from penkitd")
        finally:
            if view:
                view.kill()
            daemon.kill()
            daemon.wait()


def run_in_browser(label, *runs):
    """The command line's PENKIT_BINARY OUTPUT_DIR, then each run(browser, penkit, out) in one
    headless Chromium with a profile of its own; the last line says `label` passed."""
    penkit, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(profile)
        try:
            for run in runs:
                run(browser, penkit, out)
        finally:
            browser.close()
    print(f"{label}: passed; screenshots in {out}")


def main():
    penkit, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(profile)
        try:
            browser.call("Browser.getVersion")
            realtime_run(browser, penkit, out)
            all_at_once_run(browser, penkit, out)
            daemon_run(browser, penkit, out)
        finally:
            browser.close()
    print(f"view browser test: passed; screenshots in {out}")


if __name__ == "__main__":
    main()
