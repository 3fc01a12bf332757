#!/usr/bin/env python3
"""The canvas's tool picker (`penkit view`, docs/view.md) in headless Chromium, read as a person
reads it: by its pixels. PKToolPicker is read at a glance, and so must this be:

- each ink's button shows a sample stroke drawn in that ink: inked pixels in the ink's colour (its
  colour and opacity over the button, from the inks table penkit view serves), and a colour picked
  for the pen turns the pen's sample to that colour;
- the colours are swatches always in view: the pixel at each swatch's centre is its colour;
- the width is a dot of that size: the dot's inked diameter is the width in CSS px (96 dpi);
- the picked tool is plainly marked: its frame is the marking blue, the others' frames are not.

Screenshots go to OUTPUT_DIR (picker.png, picker-crayon.png); the first is docs/canvas-picker.png.
Usage: view-picker-browser-test.py PENKIT_BINARY OUTPUT_DIR"""
import base64, importlib.util, json, os, sys, tempfile, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("view_browser_test", os.path.join(HERE, "view-browser-test.py"))
vbt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vbt)
fail = vbt.fail

TRACE = "traces/wacom-intuos4-6x9-stylus-drag.evemu"
PX_PER_MM = 96 / 25.4
MARK = (0x1e, 0x63, 0xd6)       # the picked tool's frame
INK_NAMES = ["pen", "pencil", "marker", "monoline", "fountainPen", "watercolor", "crayon"]


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def dist(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def over(color, alpha, ground):
    return tuple(round(c * alpha + g * (1 - alpha)) for c, g in zip(color, ground))


def shot(browser, session, out, name, clip):
    data = base64.b64decode(browser.call("Page.captureScreenshot", {"format": "png", "clip": {**clip, "scale": 1}}, session)["data"])
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    return vbt.decode_png(data)[2]


def rects(browser, session):
    return browser.evaluate(session, """(() => {
      const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; };
      const p = document.getElementById('picker');
      return { picker: r(p),
               inks: Object.fromEntries([...p.querySelectorAll('.ink-button')].map(b => [b.dataset.tool, { button: r(b), sample: r(b.querySelector('canvas')) }])),
               swatches: [...p.querySelectorAll('[data-color]')].map(b => [b.dataset.color, r(b)]),
               well: r(document.getElementById('width-well')) }; })()""")


def inked(pixel, rect, origin, ground, want, tolerance):
    """Pixels of `rect` (page px) that are ink, and how many of them are near `want`."""
    x0, y0, w, h = (int(round(v)) for v in rect)
    ink = near = 0
    for y in range(y0 + 1, y0 + h - 1):
        for x in range(x0 + 1, x0 + w - 1):
            p = pixel(x - origin[0], y - origin[1])
            if dist(p, ground) > 40:
                ink += 1
                if dist(p, want) <= tolerance:
                    near += 1
    return ink, near


def check_samples(pixel, r, origin, table, picked, colors=None):
    for name in INK_NAMES:
        d = table[name]
        color = hex_rgb((colors or {}).get(name, d["canvasColor"]))
        ground = (0xdb, 0xe6, 0xfb) if name == picked else (255, 255, 255)
        # The sample presses to 0.9 at its middle: the ink's opacity there, by the table's rule.
        want = over(color, min(1.0, d["opacity"]["base"] + d["opacity"]["force"] * 0.9), ground)
        # Grain (pencil, crayon) and the watercolour's blur spread the ink's colour: wider tolerance there.
        tolerance = 110 if name in ("pencil", "crayon", "watercolor") else 70
        ink, near = inked(pixel, r["inks"][name]["sample"], origin, ground, want, tolerance)
        print(f"  {name}: sample stroke of {ink} inked px, {near} near its ink's colour {want}")
        if ink < 150 or near < 0.25 * ink:
            fail(f"the {name} button shows no sample stroke in its ink ({ink} inked px, {near} in colour {want})")


def check_marked(pixel, r, origin, picked):
    for name in INK_NAMES:
        x, y, w, h = r["inks"][name]["button"]
        edge = pixel(int(x + w / 2) - origin[0], int(y + 1) - origin[1])   # the frame's top edge, mid-width
        marked = dist(edge, MARK) < 40
        if marked != (name == picked):
            fail(f"{name}: its frame is {edge}; the picked tool is {picked}, marked in {MARK}")
    print(f"  picked {picked}: its frame alone is the marking blue")


def run(browser, penkit, out):
    view, url = vbt.start_view(penkit, TRACE, realtime=False)
    try:
        base, token = url.split("/?token=")
        table = json.load(urllib.request.urlopen(f"{base}/inks.json?token={token}"))
        session = browser.open(url)
        browser.wait_for(session, "window.penkitCanvas !== undefined", "the canvas's modules")
        r = rects(browser, session)
        clip = dict(zip(("x", "y", "width", "height"), r["picker"]))
        clip["height"] = r["well"][1] + r["well"][3] + 8 - clip["y"]
        origin = (int(clip["x"]), int(clip["y"]))
        pixel = shot(browser, session, out, "picker.png", clip)
        check_samples(pixel, r, origin, table, "pen")
        check_marked(pixel, r, origin, "pen")
        for color, (x, y, w, h) in r["swatches"]:
            p = pixel(int(x + w / 2) - origin[0], int(y + h / 2) - origin[1])
            if dist(p, hex_rgb(color)) > 12:
                fail(f"the swatch {color} shows {p} at its centre")
        print(f"  {len(r['swatches'])} swatches in view, each its colour at its centre")

        # The pen in red, 8 mm, then the crayon picked: the pen's sample turns red, the dot is 8 mm wide.
        browser.evaluate(session, """(() => { document.querySelector('[data-color="#d62828"]').click();
            const w = document.getElementById('width'); w.value = 8; w.dispatchEvent(new Event('input')); })()""")
        pixel = shot(browser, session, out, "picker-pen-red.png", clip)
        x, y, w, h = r["well"]
        row = [pixel(int(x) + i - origin[0], int(y + h / 2) - origin[1]) for i in range(int(w))]
        diameter = sum(1 for p in row if dist(p, (0xd6, 0x28, 0x28)) < 60)
        print(f"  width 8 mm: a dot {diameter} px across (8 mm = {8 * PX_PER_MM:.1f} px)")
        if abs(diameter - 8 * PX_PER_MM) > 2.5:
            fail(f"the width dot is {diameter} px across for 8 mm ({8 * PX_PER_MM:.1f} px)")
        browser.evaluate(session, "document.querySelector('[data-tool=crayon]').click()")
        pixel = shot(browser, session, out, "picker-crayon.png", clip)
        check_samples(pixel, r, origin, table, "crayon", colors={"pen": "#d62828"})
        check_marked(pixel, r, origin, "crayon")
    finally:
        view.kill()
        view.wait()


def main():
    vbt.run_in_browser("view picker browser test", run)


if __name__ == "__main__":
    main()
