"""Pairs what an app reported with the events its display server's libinput should have produced
(the expected events), by content and in order, never by time.

Why content: an app's event time is when the app dispatched the event (Chromium's PointerEvent
timeStamp), not when the kernel carried the report, and under software emulation an app delivers
late and may lose reports; pairing by time mispairs. What an app cannot change is what a report
says: where the pen is (through the display server's map of the tablet onto its output), whether
the tip is down, the pressure and the tilt. So each app report is paired with one expected event
that says the same, keeping both sequences' order (a report cannot come before one paired earlier).

The pairing is a weighted longest common subsequence: as many pairs as possible, then the least
total disagreement. A pair is allowed only when the tip state agrees and the position lands within
`gate_px` of the expected one through the map. The map starts as the display server's documented
one (the tablet's whole area onto the output) and is then fitted on the pairs (least squares,
affine) and the pairing redone, so a wrong nominal map is corrected, not assumed. The last gate is
wide (3 px) against the ≤ 0.5 px residual the caller checks, so that the check can fail.

Reports left unpaired say something no expected event said (a second pen, a duplicate, a position
off the map); expected events left unpaired are reports the app never delivered (lost)."""

import math

PRESSURE_STEP = 1 / 65535


def fit_affine(src, dst):
    """Least squares dst ≈ [a b c; d e f]·[x y 1]: two 3×3 normal-equation solves."""
    def solve(m, v):
        m = [row[:] + [v[i]] for i, row in enumerate(m)]
        for c in range(3):
            p = max(range(c, 3), key=lambda r: abs(m[r][c]))
            m[c], m[p] = m[p], m[c]
            if m[c][c] == 0:
                raise ValueError("degenerate positions: every pair on one line")
            for r in range(3):
                if r != c:
                    f = m[r][c] / m[c][c]
                    m[r] = [a - f * b for a, b in zip(m[r], m[c])]
        return [m[i][3] / m[i][i] for i in range(3)]
    rows = [(x, y, 1.0) for x, y in src]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    out = []
    for k in range(2):
        atb = [sum(r[i] * d[k] for r, d in zip(rows, dst)) for i in range(3)]
        out.append(solve(ata, atb))
    return out


def apply(m, x, y):
    return (m[0][0] * x + m[0][1] * y + m[0][2], m[1][0] * x + m[1][1] * y + m[1][2])


def invert(m, u, v):
    a, b, c = m[0]
    d, e, f = m[1]
    det = a * e - b * d
    u, v = u - c, v - f
    return ((e * u - b * v) / det, (-d * u + a * v) / det)


def residuals(m, pairs):
    """Each pair's distance (px) between the app's position and the expected one through m."""
    out = []
    for r, w in pairs:
        px, py = apply(m, w["x"], w["y"])
        out.append(((px - r["x"]) ** 2 + (py - r["y"]) ** 2) ** 0.5)
    return out


def _worth(r, w, axes, m, gate_px):
    """None when r cannot be w's report; else what pairing them is worth: 1 for the same content,
    down to 0.1 as the position nears the gate and the pressure and tilt disagree. A pair that
    disagrees is worth less than leaving one report out and pairing the rest well, so a report
    the app repeated does not shift every pair after it onto the next expected event."""
    if r["tip"] != (axes["tip"] == "down"):
        return None
    px, py = apply(m, w["x"], w["y"])
    d = ((px - r["x"]) ** 2 + (py - r["y"]) ** 2) ** 0.5
    if d > gate_px:
        return None
    worth = 1 - 0.6 * d / gate_px
    if r.get("p") is not None and "pressure" in axes:
        # Pressure that differs beyond the app's rounding is other content: it costs more than any
        # difference in place within the gate could (an app with whole pixels has 0.7 px of those).
        steps = abs(r["p"] - axes["pressure"]) / PRESSURE_STEP
        worth -= (0.15 if steps > 1.5 else 0) + 0.15 * min(steps, 1000) / 1000
    for mine, theirs in (("tx", "tilt_x"), ("ty", "tilt_y")):
        if r.get(mine) is not None and theirs in axes:
            worth -= 0.02 * min(abs(r[mine] - axes[theirs]), 9) / 9
    return worth


def pair_once(reports, want, m, gate_px, axes_lag=0):
    """The weighted LCS of reports and want under map m: a list of (report, expected) pairs.
    axes_lag 1: the app's tip state and pressure are those of the expected event before the one
    whose position it has (GTK 4.8 on Wayland); the position is always the event's own."""
    n, k = len(reports), len(want)
    # score[i][j]: the best total worth for reports[:i] and want[:j]; move[i][j] how it was got.
    score = [[0.0] * (k + 1) for _ in range(n + 1)]
    move = [[0] * (k + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        r = reports[i - 1]
        row, above = score[i], score[i - 1]
        mv = move[i]
        for j in range(1, k + 1):
            best, how = above[j], 1          # report i-1 unpaired
            if row[j - 1] > best:
                best, how = row[j - 1], 2    # expected j-1 unpaired
            # (The proximity's first event has no report before it: its axes are its own.)
            worth = _worth(r, want[j - 1], want[max(0, j - 1 - axes_lag)], m, gate_px)
            if worth is not None and above[j - 1] + worth > best:
                best, how = above[j - 1] + worth, 3
            row[j] = best
            mv[j] = how
    pairs, i, j = [], n, k
    while i > 0 and j > 0:
        how = move[i][j]
        if how == 3:
            pairs.append((reports[i - 1], want[j - 1]))
            i, j = i - 1, j - 1
        elif how == 1:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs


def vote_offset(reports, want, nominal, cell_px=2.0):
    """Where the app's window sits: the offset (px) that the most (report, expected event) pairs
    agree on under the nominal map's scale, among every report and every expected event of the
    same tip state. Each report votes once for the offset to each candidate; its true partner's
    offset is the same for every report, the others scatter."""
    votes = {}
    for r in reports[::max(1, len(reports) // 60)]:
        seen = set()
        for w in want:
            px, py = apply(nominal, w["x"], w["y"])
            cell = (round((r["x"] - px) / cell_px), round((r["y"] - py) / cell_px))
            if cell not in seen:
                seen.add(cell)
                votes[cell] = votes.get(cell, 0) + 1
    if not votes:
        return nominal
    (cx, cy), _ = max(votes.items(), key=lambda kv: kv[1])
    return [[nominal[0][0], nominal[0][1], nominal[0][2] + cx * cell_px],
            [nominal[1][0], nominal[1][1], nominal[1][2] + cy * cell_px]]


def pair_by_content(reports, want, nominal, gates=(8.0, 3.0, 3.0), axes_lag=0):
    """Pairs with the map refitted after each gate; returns (pairs, map). The first map is the
    nominal one moved by vote_offset; the returned map is the last fit (or that first map when
    fewer than three pairs were found)."""
    return refit_through_gates(reports, want, vote_offset(reports, want, nominal), gates, axes_lag)


def refit_through_gates(reports, want, m, gates, axes_lag=0):
    """Pairs within each gate in turn (px through the map), refitting the map on the pairs after
    each; returns (pairs, map): the last fit, or `m` when fewer than three pairs were found."""
    pairs = []
    for gate in gates:
        pairs = pair_once(reports, want, m, gate, axes_lag)
        if len(pairs) >= 3:
            try:
                m = fit_affine([(w["x"], w["y"]) for _, w in pairs], [(r["x"], r["y"]) for r, _ in pairs])
            except ValueError:
                break
    return pairs, m


def residual_beyond_rounding(m, pairs):
    """The largest distance of a pair from the map counted beyond half a unit on each axis: what
    an app that gives whole pixels (or points) is off by beyond its own rounding."""
    beyond = []
    for r, w in pairs:
        px, py = apply(m, w["x"], w["y"])
        beyond.append(math.hypot(max(0.0, abs(px - r["x"]) - 0.5), max(0.0, abs(py - r["y"]) - 0.5)))
    return max(beyond)


def judge_map_residual(m, pairs, whole, limit, unit, row, problems):
    """Writes the fitted map and its largest residual into `row` (beyond whole-unit rounding where
    the app gives whole units: it cannot be nearer than that), and a problem when over `limit`."""
    residual = max(residuals(m, pairs))
    row["map"] = [[round(v, 6) for v in r] for r in m]
    row["residual_px"] = round(residual, 4)
    row["app_resolution_px"] = 1 if whole else None
    if whole:
        residual = residual_beyond_rounding(m, pairs)
        row["residual_beyond_rounding_px"] = round(residual, 4)
    if residual > limit:
        problems.append("positions: the largest residual of the affine map is %.3f %s (> %.1f)%s"
                        % (residual, unit, limit, " beyond the app's whole-unit rounding" if whole else ""))
