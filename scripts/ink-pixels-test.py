#!/usr/bin/env python3
"""Inks checked by their pixels, as a real rasterizer draws them: `penkit draw` turns synthetic
pen recordings (pressure and tilt ramps, chisel strokes; evemu files written here on the bundled
Intuos4's header, 200 units/mm) and a real trace into SVG; Debian's chromium, headless, renders
the SVG to PNG; this script reads the pixels. Expected values come from the synthetic input's
geometry (where the pen went, which way, what rose), never from penkit's own numbers:

- width follows force: along a pressure ramp the pen's line widens steadily, to at least twice its
  starting width; a monoline's does not change; along a tilt ramp a pencil's widens by half at least;
- no beads: along a pressure ramp, a light pencil's and a watercolour's opacity rises with no local
  maximum above the noise (each 2 mm bin at least as dark as every bin before it, less the noise);
- the chisel: a marker stroke drawn across the nib's axis is more than twice as wide as one drawn
  along it; a roll ramp (an Art Pen's barrel turned a full turn along a line) turns the marker's
  and the fountain pen's nib with it: the line is as thin as the nib somewhere and as wide as its
  length elsewhere, while without roll it keeps one width;
- real strokes: each of the seven inks draws the Intuos4 drag with ink within 0.5 mm of every
  contact real libinput reports for it (Tests/Fixtures/libinput); for the flat inks, the pixels of
  penkit's own --png agree with Chromium's rendering of the SVG.

Usage: ink-pixels-test.py PENKIT_BINARY OUTPUT_DIR (make puts the pictures under .build/)
       ink-pixels-test.py --sampler FILE.evemu: writes docs/strokes.md's sampler recording: a wave
       drawn with pressure rising from 10 % to 100 %, then a circle at half pressure."""
import math, os, struct, subprocess, sys, zlib

TEMPLATE = "traces/wacom-intuos4-6x9-stylus-drag.evemu"
SERIAL = -1719661677  # the template pen's MSC_SERIAL
UNITS = 200  # per mm, x and y
SCALE = 3  # Chromium's device scale factor: CSS px are 96 per inch
PX_PER_MM = 96 / 25.4 * SCALE


def fail(message):
    print(f"ink pixels test: FAIL: {message}")
    sys.exit(1)


# --- synthetic recordings ------------------------------------------------------------------

ART_PEN = 0x100804  # a tool id libwacom knows with a rotation axis (ABS_Z): the decoder reads its roll


def evemu(strokes, roll=None, tool_id=2050):
    """An evemu recording of `strokes`, each a list of (x mm, y mm, pressure 0..1, tilt x °) at
    5 ms intervals, pen in proximity before and out after each; `roll`, a function of the
    point's index, gives ABS_Z (−900 … 899 is a full turn) with an Art Pen's `tool_id`."""
    with open(TEMPLATE) as f:
        lines = [l for l in f.read().split("\n") if not l.startswith("E:")]
    out = "\n".join(lines).rstrip("\n") + "\n"
    t = 1_000_000.0

    def frame(*events):
        nonlocal out, t
        for (kind, code, value) in events + ((4, 0, SERIAL), (0, 0, 0)):
            out += f"E: {t:.6f} {kind:04x} {code:04x} {value}\n"
        t += 0.005

    def z(i):
        return ((3, 2, roll(i)),) if roll else ()

    for points in strokes:
        x, y, p, tilt = points[0]
        frame((3, 0, round(x * UNITS)), (3, 1, round(y * UNITS)), (3, 0x19, 20), (3, 0x1A, 64 + round(tilt)),
              (3, 0x1B, 64), *z(0), (3, 0x28, tool_id), (1, 0x140, 1))
        frame((3, 0x18, round(p * 2047)), (3, 0x19, 0), (1, 0x14A, 1))
        for i, (x, y, p, tilt) in enumerate(points[1:], 1):
            frame((3, 0, round(x * UNITS)), (3, 1, round(y * UNITS)), (3, 0x18, round(p * 2047)),
                  (3, 0x1A, 64 + round(tilt)), *z(i))
        frame((3, 0x18, 0), (3, 0x19, 20), (1, 0x14A, 0))
        frame((3, 0x28, 0), (1, 0x140, 0))
        t += 0.3
    return out


def line(x0, y0, x1, y1, count, pressure=lambda s: 0.5, tilt=lambda s: 0):
    return [(x0 + (x1 - x0) * i / (count - 1), y0 + (y1 - y0) * i / (count - 1),
             pressure(i / (count - 1)), tilt(i / (count - 1))) for i in range(count)]


# A straight line along x at y 50 mm from x 20 to 100 mm, 0.2 mm a report (40 mm/s), pressure
# rising from 5 % to 100 %.
RAMP_Y, RAMP_X0, RAMP_X1 = 50.0, 20.0, 100.0
RAMP = [line(RAMP_X0, RAMP_Y, RAMP_X1, RAMP_Y, 401, pressure=lambda s: 0.05 + 0.95 * s)]
# The same line at half pressure with the pen tilted from upright (tilt x 0°) to 60°.
TILT = [line(RAMP_X0, RAMP_Y, RAMP_X1, RAMP_Y, 401, tilt=lambda s: 60 * s)]
# The same line at one pressure: what the measurements along it vary by without a ramp.
FLAT = [line(RAMP_X0, RAMP_Y, RAMP_X1, RAMP_Y, 401, pressure=lambda s: 0.5)]
# Two 40 mm marker strokes at half pressure: one rising to the right (along the chisel's axis at
# −45° on the y-down page), one falling to the right (across it).
ALONG = ((20.0, 90.0), (48.28, 61.72))
ACROSS = ((70.0, 40.0), (98.28, 68.28))
CHISEL = [line(*ALONG[0], *ALONG[1], 201), line(*ACROSS[0], *ACROSS[1], 201)]


# --- rendering -----------------------------------------------------------------------------

def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def view_box(svg):
    with open(svg) as f:
        head = f.read(400)
    box = head.split('viewBox="')[1].split('"')[0]
    return [float(v) for v in box.split()]


def decode_png(path):
    """Width, height and a function (x, y) -> (r, g, b, a) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            fail(f"{path}: bad CRC in {kind}")
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
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
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    if bpp == 3:
        return width, height, lambda x, y: tuple(rows[y][x * 3:x * 3 + 3]) + (255,)
    return width, height, lambda x, y: tuple(rows[y][x * 4:x * 4 + 4])


class Picture:
    """Chromium's rendering of an SVG of penkit's: darkness (0 white … 1 black) at a point in mm."""

    def __init__(self, svg, png):
        self.box = view_box(svg)
        w = int(self.box[2] * 96 / 25.4) + 2
        h = int(self.box[3] * 96 / 25.4) + 2
        run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--force-device-scale-factor={SCALE}", f"--window-size={w},{h}", f"--screenshot={png}",
             "file://" + os.path.abspath(svg)])
        self.width, self.height, self.pixel = decode_png(png)

    @classmethod
    def penkits(cls, svg, png):
        """penkit's own --png of the same drawing (same viewport, PX_PER_MM), over white."""
        pic = cls.__new__(cls)
        pic.box = view_box(svg)
        pic.width, pic.height, rgba = decode_png(png)

        def over_white(x, y):
            r, g, b, a = rgba(x, y)
            return tuple(round(c * a / 255 + 255 * (1 - a / 255)) for c in (r, g, b)) + (255,)
        pic.pixel = over_white
        return pic

    def px(self, x_mm, y_mm):
        return (x_mm - self.box[0]) * PX_PER_MM, (y_mm - self.box[1]) * PX_PER_MM

    def darkness_px(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return 0.0
        r, g, b, a = self.pixel(x, y)
        return 1 - (r + g + b) / (3 * 255)

    def darkness(self, x_mm, y_mm):
        x, y = self.px(x_mm, y_mm)
        return self.darkness_px(int(x), int(y))


def draw(penkit, trace_text, ink, out, name, tool="pen"):
    trace = os.path.join(out, name + ".evemu")
    if trace_text is not None:
        with open(trace, "w") as f:
            f.write(trace_text)
    else:
        trace = TEMPLATE
    svg = os.path.join(out, name + ".svg")
    run([penkit, "draw", trace, "--svg", svg, "--png", os.path.join(out, name + ".penkit.png"),
         "--png-scale", str(PX_PER_MM), "--ink", f"{tool}={ink}"])
    return Picture(svg, os.path.join(out, name + ".png"))


# --- measurements --------------------------------------------------------------------------

def column_widths(pic, threshold, reach_mm=6):
    """Width in mm of the ramp's line at each pixel column of its middle 90 %: from the first to
    the last pixel darker than `threshold` within reach_mm of the row at RAMP_Y (where the pen
    went), so that a grainy ink's holes inside the line do not count."""
    widths = []
    x0, _ = pic.px(RAMP_X0 + 4, RAMP_Y)
    x1, yc = pic.px(RAMP_X1 - 4, RAMP_Y)
    yc, reach = int(yc), int(reach_mm * PX_PER_MM)
    for x in range(int(x0), int(x1)):
        inked = [y for y in range(yc - reach, yc + reach + 1) if pic.darkness_px(x, y) > threshold]
        if not inked:
            fail(f"no ink within {reach_mm} mm of the ramp's line, x {x} px")
        widths.append((inked[-1] - inked[0] + 1) / PX_PER_MM)
    return widths


def bins(values, count):
    n = len(values) // count
    return [sorted(values[i * n:(i + 1) * n])[n // 2] for i in range(count)]


def check_width_follows_force(penkit, out):
    pen = draw(penkit, evemu(RAMP), "pen #000000ff 1", out, "ramp-pen")
    widths = bins(column_widths(pen, 0.5), 10)
    print("pen on a pressure ramp, width (mm) by tenth:", " ".join(f"{w:.2f}" for w in widths))
    tolerance = 1 / PX_PER_MM
    for a, b in zip(widths, widths[1:]):
        if b < a - tolerance:
            fail(f"the pen's width falls along the pressure ramp: {a:.2f} then {b:.2f} mm")
    if widths[-1] < 2 * widths[0]:
        fail(f"the pen's width does not follow force: {widths[0]:.2f} mm at 5 % pressure, {widths[-1]:.2f} at 100 %")
    pencil = draw(penkit, evemu(TILT), "pencil #000000ff 1", out, "tilt-pencil")
    widths = bins(column_widths(pencil, 0.08), 10)
    print("pencil tilted from 0° to 60°, width (mm) by tenth:", " ".join(f"{w:.2f}" for w in widths))
    for a, b in zip(widths, widths[1:]):
        if b < a - tolerance:
            fail(f"the pencil's width falls as it is tilted further: {a:.2f} then {b:.2f} mm")
    if widths[-1] < 1.5 * widths[0]:
        fail(f"the pencil does not widen when tilted: {widths[0]:.2f} mm upright, {widths[-1]:.2f} at 60°")
    mono = draw(penkit, evemu(RAMP), "monoline #000000ff 1", out, "ramp-monoline")
    widths = bins(column_widths(mono, 0.5), 10)
    print("monoline on the same ramp:", " ".join(f"{w:.2f}" for w in widths))
    if max(widths) - min(widths) > 2 * tolerance:
        fail(f"the monoline's width changes with force: {min(widths):.2f} … {max(widths):.2f} mm")


def centre_darkness(pic, half_band_mm=0.4, bin_mm=2.0):
    """Mean darkness along the ramp's centre line, ±half_band_mm across it, in bins of bin_mm."""
    result = []
    x = RAMP_X0 + 2
    step = 1 / PX_PER_MM
    while x + bin_mm <= RAMP_X1 - 2:
        values = []
        xs = x
        while xs < x + bin_mm:
            ys = RAMP_Y - half_band_mm
            while ys <= RAMP_Y + half_band_mm:
                values.append(pic.darkness(xs, ys))
                ys += step
            xs += step
        result.append(sum(values) / len(values))
        x += bin_mm
    return result


def check_no_beads(penkit, out):
    for name, ink in (("pencil", "pencil #22222266 2"), ("watercolor", "watercolor #2060c0ff 6")):
        # The noise: how much the same measurement varies (highest bin less lowest) along the same
        # line drawn at one pressure (one opacity: the grain's share, and the 8-bit channel's).
        flat = centre_darkness(draw(penkit, evemu(FLAT), ink, out, "flat-" + name))
        noise = max(max(flat) - min(flat), 2 / 255)
        draw(penkit, evemu(RAMP), ink, out, "ramp-" + name)
        svg = os.path.join(out, f"ramp-{name}.svg")
        # Chromium's rendering of the SVG, then penkit's own PNG (its noise measured the same way).
        for who, pic, flat_png in (("Chromium", Picture(svg, os.path.join(out, f"ramp-{name}.png")), None),
                                   ("penkit --png", Picture.penkits(svg, os.path.join(out, f"ramp-{name}.penkit.png")),
                                    os.path.join(out, f"flat-{name}.penkit.png"))):
            if flat_png:
                flat = centre_darkness(Picture.penkits(os.path.join(out, f"flat-{name}.svg"), flat_png))
                noise = max(max(flat) - min(flat), 2 / 255)
            d = centre_darkness(pic)
            print(f"{name} on a pressure ramp ({who}): darkness {d[0]:.3f} → {d[-1]:.3f} over {len(d)} bins; "
                  f"noise {noise:.3f} (at one pressure)")
            if d[-1] < d[0] + 0.1:
                fail(f"the {name}'s opacity does not rise with force ({who}): {d[0]:.3f} → {d[-1]:.3f}")
            running = 0.0
            for i, v in enumerate(d):
                if v < running - noise:
                    fail(f"{name} ({who}): a bead before {RAMP_X0 + 2 + 2 * i:.0f} mm: darkness {running:.3f} earlier, "
                         f"then {v:.3f} (noise {noise:.3f})")
                running = max(running, v)


def width_across(pic, a, b):
    """The ink's extent in mm across the straight stroke from a to b, at its middle: along the
    normal through the midpoint, from the middle out to where the ink ends each way."""
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    step = 0.5 / PX_PER_MM
    extent = 0.0
    for sign in (1, -1):
        s = 0.0
        while pic.darkness(mx + sign * s * nx, my + sign * s * ny) > 0.25:
            s += step
            if s > 20:
                fail("no edge to the chisel stroke within 20 mm")
        extent += s
    return extent


def check_chisel(penkit, out):
    pic = draw(penkit, evemu(CHISEL), "marker #000000ff 6", out, "chisel")
    along, across = width_across(pic, *ALONG), width_across(pic, *ACROSS)
    print(f"marker: {across:.2f} mm wide drawn across the chisel, {along:.2f} mm drawn along it")
    if along < 0.3:
        fail(f"the stroke along the chisel left no line ({along:.2f} mm)")
    if across < 2 * along:
        fail(f"the chisel is not wider across than along: {across:.2f} vs {along:.2f} mm")


def libinput_contacts(fixture):
    """Where real libinput says the pen touched (mm): its tip and axis events with the tip down."""
    import json
    points = []
    with open(fixture) as f:
        for l in f:
            e = json.loads(l)
            if e.get("tip") == "down" and e["type"] in ("tip", "axis"):
                points.append((e["x"], e["y"]))
    return points


CONTACTS = libinput_contacts("Tests/Fixtures/libinput/wacom-intuos4-6x9-stylus-drag.jsonl")


# The nibs' thickness along their axis as a fraction of their length (docs/strokes.md, "Nibs").
NIB_ASPECT = {"marker": 0.3, "fountainPen": 0.25}


def check_roll_turns_the_nib(penkit, out):
    """A barrel roll ramp (one full turn of an Art Pen along a straight line) turns the chisel and
    the italic nib with it, as PencilKit turns shaped nibs with Apple Pencil Pro's roll. A pen
    without a rotation axis (roll 0) draws the line as wide as the nib's extent across it at the
    ink's fixed angle, w0; the Art Pen held still draws one width too; turned a full turn, the nib
    lies along the line somewhere (the line as thin as the nib's thickness, aspect × length) and
    across it elsewhere (as wide as the nib's length). The nib's length L follows from w0 and the
    documented angle (−45° marker, −30° fountain pen) and aspect, not from the code under test:
    w0 = L·√(sin²θ + aspect²·cos²θ)."""
    for ink, angle in (("marker #000000ff 6", -math.pi / 4), ("fountainPen #000000ff 2", -math.pi / 6)):
        name = ink.split()[0]
        k = NIB_ASPECT[name]
        plain = bins(column_widths(draw(penkit, evemu(FLAT), ink, out, f"noaxis-{name}"), 0.25), 10)
        still = bins(column_widths(draw(penkit, evemu(FLAT, tool_id=ART_PEN), ink, out, f"noroll-{name}"), 0.25), 10)
        turned = bins(column_widths(draw(penkit, evemu(FLAT, roll=lambda i: round(-900 + 1799 * i / 400), tool_id=ART_PEN),
                                         ink, out, f"roll-{name}"), 0.25), 10)
        print(f"{name} with the barrel turned a full turn along the line, width by tenth:",
              " ".join(f"{w:.2f}" for w in turned), "(held still:", " ".join(f"{w:.2f}" for w in still) + ";",
              "a pen without roll:", " ".join(f"{w:.2f}" for w in plain) + ")")
        for label, line in (("held still", still), ("without a rotation axis", plain)):
            if max(line) - min(line) > 1 / PX_PER_MM:
                fail(f"{name}: {label}, the line's width changes")
        w0 = sum(plain) / len(plain)
        length = w0 / math.sqrt(math.sin(angle) ** 2 + k * k * math.cos(angle) ** 2)
        # Each tenth averages 36° of roll: the extremes are blunted (by under 5 % at the widest, to
        # about 1.25 × the thickness at the thinnest), hence the margins.
        print(f"  the nib: {length:.2f} mm long, {k * length:.2f} mm thick; turned: {min(turned):.2f} … {max(turned):.2f} mm")
        if max(turned) < 0.9 * length:
            fail(f"{name}: turned across the line, the nib draws {max(turned):.2f} mm, not its length {length:.2f} mm")
        if min(turned) > 1.5 * k * length:
            fail(f"{name}: turned along the line, the nib draws {min(turned):.2f} mm, not its thickness {k * length:.2f} mm")


def check_real_strokes(penkit, out):
    for ink in ("pen #1040c0ff 1", "pencil #303030cc 1.5", "marker #ffd000ff 6", "monoline #208040ff 1",
                "fountainPen #101060ff 1.5", "watercolor #2080e0ff 6", "crayon #c03020ff 3"):
        name = "drag-" + ink.split()[0]
        pic = draw(penkit, None, ink, out, name)
        ours_w, ours_h, ours = decode_png(os.path.join(out, name + ".penkit.png"))
        inked = sum(1 for y in range(0, pic.height, 2) for x in range(0, pic.width, 2) if pic.darkness_px(x, y) > 0.1)
        if inked < 100:
            fail(f"{name}: Chromium shows almost no ink ({inked} pixels)")
        # Ink where the pen touched: every contact real libinput reported for the drag has ink within 0.5 mm.
        missed = [(x, y) for (x, y) in CONTACTS
                  if not any(pic.darkness(x + dx / 4, y + dy / 4) > 0.02 for dx in range(-2, 3) for dy in range(-2, 3))]
        if missed:
            fail(f"{name}: no ink within 0.5 mm of {len(missed)} of libinput's {len(CONTACTS)} contacts, e.g. {missed[0]}")
        if ink.split()[0] in ("pen", "monoline", "fountainPen", "marker"):
            both = either = 0
            for y in range(0, min(pic.height, ours_h), 2):
                for x in range(0, min(pic.width, ours_w), 2):
                    a = pic.darkness_px(x, y) > 0.05
                    b = ours(x, y)[3] > 13
                    both += a and b
                    either += a or b
            overlap = both / max(either, 1)
            print(f"{name}: penkit's PNG and Chromium's rendering of the SVG cover the same pixels to {overlap:.3f}")
            if overlap < 0.9:
                fail(f"{name}: penkit's PNG and Chromium's rendering differ (overlap {overlap:.3f})")
        else:
            print(f"{name}: {inked} inked pixels (of a quarter sample)")


def sampler():
    import math
    wave = [(10 + 60 * s, 20 + 8 * math.sin(2 * math.pi * 1.5 * s), 0.1 + 0.9 * s, 0)
            for s in (i / 159 for i in range(160))]
    circle = [(90 + 9 * math.cos(2 * math.pi * s), 20 + 9 * math.sin(2 * math.pi * s), 0.5, 0)
              for s in (i / 119 for i in range(120))]
    return evemu([wave, circle])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--sampler":
        with open(sys.argv[2], "w") as f:
            f.write(sampler())
        return
    if len(sys.argv) != 3:
        fail(__doc__)
    penkit, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    check_width_follows_force(penkit, out)
    check_no_beads(penkit, out)
    check_chisel(penkit, out)
    check_roll_turns_the_nib(penkit, out)
    check_real_strokes(penkit, out)
    print(f"ink pixels test: passed (pictures in {out})")


if __name__ == "__main__":
    main()
