"""Reads what Xournal++ (1.1.x) saved, and takes apart what its stroke handler did to the input.

A .xopp is gzip XML: <xournal><page width height><layer><stroke tool color width="...">x0 y0 x1
y1 ...</stroke>. Coordinates are page points, written with "%.8f". A stroke drawn without pressure
has one width (the tool's thickness W); with pressure, `width` is W and then one width per segment:
the segment from point i to point i+1 is drawn z_i wide (1.1.3 SaveHandler::visitStroke writes W
and z_0 .. z_{n-2}; the last point's z is never drawn).

How those widths come from the pen (1.1.3 src/control/tools/StrokeHandler.cpp, no stabilizer):
- The press makes the first point, its z the raw pressure p (GDK's pressure axis, 0..1).
- Each motion with pressure 0 is ignored (a tip-up motion), and each motion within 0.3 pt of the
  last point (PIXEL_MOTION_THRESHOLD) adds no point; on the first point only it may raise that
  point's pressure (firstPointPressureChange).
- A motion that adds a point P sets the previous point's z to W·p(P), then appends P. So
  z_i = W · (pressure of point i+1): each segment is as wide as the pen's pressure at its end.
- When W·(p(P) − p(previous)) is more than 0.3 (MAX_WIDTH_VARIATION), the segment is split into
  n = min(ceil(|Δ|/0.3), floor(distance/0.3)) equal steps: n−1 points are inserted on the segment
  at k/n, and the widths step linearly from the previous point's W·p by Δ/n.
- The release adds no point; a stroke of one point gets a copy of it.
So every saved point is either an input event the app got (a `kept` point, its pressure stored as
the previous segment's width) or a point inserted on a segment (`inserted`), told apart exactly."""
import gzip
import math
import xml.etree.ElementTree as ET

MOTION_THRESHOLD = 0.3      # InputHandler::PIXEL_MOTION_THRESHOLD (page pt)
MAX_WIDTH_VARIATION = 0.3   # StrokeHandler::MAX_WIDTH_VARIATION (pt of width)
WRITTEN = 5e-9              # half a unit in the 8th decimal: what "%.8f" may move a value


class XoppError(Exception):
    pass


def read_xopp(path):
    """[{tool, color, width, widths, points: [(x, y)]}] of the first page's layers, in order, and
    the page size; XoppError with the reason when the file is not a whole .xopp."""
    try:
        root = ET.fromstring(gzip.open(path).read())
    except FileNotFoundError:
        raise XoppError("%s does not exist" % path)
    except (OSError, EOFError, ET.ParseError) as e:
        raise XoppError("%s is not a whole gzip XML .xopp: %s" % (path, e))
    if root.tag != "xournal":
        raise XoppError("%s: the root element is <%s>, not <xournal>" % (path, root.tag))
    pages = root.findall("page")
    if not pages:
        raise XoppError("%s has no page" % path)
    page = pages[0]
    strokes, others = [], []
    for layer in page.findall("layer"):
        for el in layer:
            if el.tag != "stroke":
                others.append(el.tag)
                continue
            try:
                values = [float(v) for v in el.get("width", "").split()]
                coords = [float(v) for v in (el.text or "").split()]
            except ValueError as e:
                raise XoppError("%s: a stroke's numbers do not parse: %s" % (path, e))
            if not values or len(coords) % 2 or not coords:
                raise XoppError("%s: a stroke with %d widths and %d coordinates" % (path, len(values), len(coords)))
            points = list(zip(coords[0::2], coords[1::2]))
            widths = values[1:]
            if widths and len(widths) != len(points) - 1:
                raise XoppError("%s: a stroke of %d points has %d segment widths" % (path, len(points), len(widths)))
            strokes.append({"tool": el.get("tool"), "color": el.get("color"), "width": values[0],
                            "widths": widths, "points": points})
    size = (float(page.get("width", "nan")), float(page.get("height", "nan")))
    return strokes, others, size, len(pages)


def _inserted_run(points, widths, i, n):
    """Whether points i+1 .. i+n-1 are the n−1 points Xournal++ inserts between points i and i+n
    (on the segment at k/n, the widths stepping by Δ/n from W·p(i): widths[i-1], or for the first
    point, whose pressure no width stores, widths[0] less one step: there input points spaced
    exactly alike on a line, with widths stepping alike, would read as inserted; real input is not
    spaced alike to 1e-7)."""
    ax, ay = points[i]
    bx, by = points[i + n]
    dist = math.hypot(bx - ax, by - ay)
    if dist < MOTION_THRESHOLD * n:
        return False
    if i > 0:
        start = widths[i - 1]
        step = widths[i] - start
    else:
        step = widths[1] - widths[0]
        start = widths[0] - step
    delta = step * n
    if abs(delta) <= MAX_WIDTH_VARIATION or min(math.ceil(abs(delta) / MAX_WIDTH_VARIATION - 1e-9), math.floor(dist / MOTION_THRESHOLD)) != n:
        return False
    for k in range(1, n):
        x, y = points[i + k]
        if abs(x - (ax + (bx - ax) * k / n)) > 4 * WRITTEN + 1e-9 * abs(x) or abs(y - (ay + (by - ay) * k / n)) > 4 * WRITTEN + 1e-9 * abs(y):
            return False
        # The last inserted point's width is set again to W·p(B): the same value, its rounding aside.
        if abs(widths[i + k] - (start + step * (k + 1))) > 4 * WRITTEN:
            return False
    return True


def take_apart(stroke, longest=64):
    """The stroke's points as Xournal++ made them: [{x, y, kept, p}] where p is the pressure the
    stroke stores for the point (the width of the segment ending there ÷ W; None for the first
    point, and for every point of a stroke without pressure)."""
    points, widths, w = stroke["points"], stroke["widths"], stroke["width"]
    out = []
    i = 0
    inserted = set()
    if widths:
        while i < len(points) - 1:
            # The longest run that fits: a run's first points fit a shorter run as well (on the
            # segment to an inserted point, the widths stepping alike), but not the other way.
            run = next((n for n in range(min(longest, len(points) - 1 - i), 1, -1) if _inserted_run(points, widths, i, n)), None)
            if run:
                inserted.update(range(i + 1, i + run))
                i += run
            else:
                i += 1
    for j, (x, y) in enumerate(points):
        p = widths[j - 1] / w if widths and j > 0 and w > 0 else None
        out.append({"x": x, "y": y, "kept": j not in inserted, "p": p, "index": j})
    return out
