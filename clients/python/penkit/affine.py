"""The affine map from tablet mm to surface units and its least-squares fit over pairs."""
from __future__ import annotations

import math
from typing import NamedTuple, Optional, Sequence


class Affine(NamedTuple):
    """(x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty), laid out as Core Graphics' and SVG's matrix."""
    a: float
    b: float
    c: float
    d: float
    tx: float
    ty: float

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.c * y + self.tx, self.b * x + self.d * y + self.ty

    @property
    def width_scale(self) -> float:
        """√|det|: how much lengths grow on average."""
        return math.sqrt(abs(self.a * self.d - self.b * self.c))

    def azimuth(self, angle: float) -> float:
        """A direction through the linear part, as an angle in [0, 2π)."""
        cx, sy = math.cos(angle), math.sin(angle)
        turned = math.atan2(self.b * cx + self.d * sy, self.a * cx + self.c * sy)
        return turned + 2 * math.pi if turned < 0 else turned


class Pair(NamedTuple):
    """One report seen twice: penkit's tablet position (mm) and the app's surface position."""
    tablet_x: float
    tablet_y: float
    surface_x: float
    surface_y: float
    lag: float
    frame_time: int


class Fit(NamedTuple):
    transform: Affine
    rms: float
    spread: float
    count: int

    def standard_error(self, reach: float) -> float:
        """The mapped position's standard error `reach` mm out across the pairs' thinnest direction."""
        if self.count <= 3 or self.spread <= 0:
            return math.inf
        n = float(self.count)
        noise = self.rms * math.sqrt(n / (n - 3))
        return noise * math.sqrt((1 + reach * reach / (self.spread * self.spread)) / n)


def residual(t: Affine, p: Pair) -> float:
    x, y = t.apply(p.tablet_x, p.tablet_y)
    return math.hypot(x - p.surface_x, y - p.surface_y)


def rms_residual(t: Affine, pairs: Sequence[Pair]) -> float:
    if not pairs:
        return 0.0
    return math.sqrt(sum(residual(t, p) ** 2 for p in pairs) / len(pairs))


def fit(pairs: Sequence[Pair]) -> Optional[Fit]:
    """Least squares over centred sums; None with fewer than 3 pairs or pairs on a line."""
    n = len(pairs)
    if n < 3:
        return None
    mpx = sum(p.tablet_x for p in pairs) / n
    mpy = sum(p.tablet_y for p in pairs) / n
    mqx = sum(p.surface_x for p in pairs) / n
    mqy = sum(p.surface_y for p in pairs) / n
    sxx = sxy = syy = uxx = uxy = uyx = uyy = 0.0
    for p in pairs:
        px, py, qx, qy = p.tablet_x - mpx, p.tablet_y - mpy, p.surface_x - mqx, p.surface_y - mqy
        sxx += px * px
        sxy += px * py
        syy += py * py
        uxx += qx * px
        uxy += qx * py
        uyx += qy * px
        uyy += qy * py
    det = sxx * syy - sxy * sxy
    if not (det > 1e-12 * (sxx + syy) * (sxx + syy)) or not math.isfinite(det):
        return None
    a = (uxx * syy - uxy * sxy) / det
    c = (uxy * sxx - uxx * sxy) / det
    b = (uyx * syy - uyy * sxy) / det
    d = (uyy * sxx - uyx * sxy) / det
    t = Affine(a, b, c, d, mqx - a * mpx - c * mpy, mqy - b * mpx - d * mpy)
    half, diff, off = (sxx + syy) / (2 * n), (sxx - syy) / (2 * n), sxy / n
    smaller = half - math.sqrt(diff * diff + off * off)
    return Fit(t, rms_residual(t, pairs), math.sqrt(max(smaller, 0.0)), n)


def translated(linear: Affine, pairs: Sequence[Pair]) -> Affine:
    """`linear`'s rotation, scale and flip, its offset refitted to `pairs`."""
    n = max(len(pairs), 1)
    sx = sum(p.surface_x - (linear.a * p.tablet_x + linear.c * p.tablet_y) for p in pairs)
    sy = sum(p.surface_y - (linear.b * p.tablet_x + linear.d * p.tablet_y) for p in pairs)
    return linear._replace(tx=sx / n, ty=sy / n)
