"""What an app on Xorg gets from a pen driven by xf86-input-wacom (1.1.0, Debian 12's), as the
expected events of scripts/desktop/desktop-results.py: the X events the driver posts for the
played trace, in the format of `penkit bench virtual-tablet --events` (mm, tip, pressure).

The driver differs from libinput where the judge must follow it (its source, src/wcmCommon.c,
src/wcmFilter.c, src/wcmUSB.c):

- pressure: normalised to 0..65536 (FILTER_PRESSURE_RES) from the pressure the pen had when it
  came into proximity (PressureRecalibration, default on: `normalizePressure`, `rebasePressure`),
  by integer division; the X axis spans 0..65536, so GTK's pressure is that / 65536;
- the tip: button 1 is the normalised pressure reaching `Threshold` (default 65536 · 0.013 = 851),
  released below it less a tolerance of 65536 · 0.008 (`setPressureButton`); BTN_TOUCH is not read;
- a report where the tip changes comes as a motion (the new axes, the old button state) and then
  the button event (`wcmSendNonPadEvents`): the app's motion says the tip as it was;
- positions and tilt: the mean of the last `RawSample` reports (default 4), restarted at
  proximity-in and at the tip going down (`wcmFilterCoord`);
- `Suppress` (default 2): a report that moves x and y by no more than it keeps the last position,
  and one where nothing else changed by more than it either is not sent (`wcmCheckSuppress`).

penkit's virtual tablet turns the filters and the threshold off for its own devices
(xorg/75-penkit-virtual-tablet.conf: RawSample 1, Suppress 0, Threshold 1,
PressureRecalibration off), so there the driver's only differences are the pressure scale and
the tip's one-report lag in the motion; on the real tablet (path `direct`) its defaults apply."""

MAX_CURVE = 65536            # FILTER_PRESSURE_RES
DEFAULTS = {"raw_sample": 4, "suppress": 2, "threshold": int(MAX_CURVE * 0.013), "recalibrate": True}
TOLERANCE = MAX_CURVE * 0.008
TOOL_KEYS = {0x140: "pen", 0x141: "eraser", 0x143: "pen", 0x142: "pen", 0x144: "pen"}   # BTN_TOOL_PEN … AIRBRUSH


def read_trace(path):
    """The trace's absinfo {code: (min, max, resolution)} and its frames [(time µs, [(type, code, value)])]."""
    absinfo, frames, pending = {}, [], []
    for line in open(path):
        p = line.split()
        if p[:1] == ["A:"]:
            absinfo[int(p[1], 16)] = (int(p[2]), int(p[3]), int(p[6]))
        elif p[:1] == ["E:"]:
            t, typ, code, value = round(float(p[1]) * 1e6), int(p[2], 16), int(p[3], 16), int(p[4])
            if typ == 0 and code == 0:
                frames.append((t, pending))
                pending = []
            else:
                pending.append((typ, code, value))
    return absinfo, frames


def _scale(value, to_max, from_max):
    """wcmScaleAxis(value, to_max, 0, from_max, 0): integer, clamped."""
    if from_max == 0:
        return 0
    return max(0, min(to_max, int(to_max * value / from_max) if value >= 0 else -int(to_max * -value / from_max)))


def direct_events(trace, options=DEFAULTS, seen_from=None):
    """The X events the driver posts for the pen of `trace` read directly, one per report it
    sends, as expected events (every proximity; the caller takes the last).

    seen_from (µs of the trace): the driver reads nothing before it (penkitd grabbed the tablet
    until it was killed, the fail-safe). The kernel then sends the driver only what changes from
    its own state, so the driver's first packet has no BTN_TOOL_PEN and it meets the pen mid-
    proximity (src/wcmUSB.c, 1.1.0, usbDispatchEvents): it takes the tool from the kernel's key
    state (`refreshDeviceType`, EVIOCGKEY), starts a cleared channel in proximity
    (`usbChooseChannel` memsets it; `ds->proximity = 1`), reads x and y from the kernel when the
    packet left them 0 (EVIOCGABS at "verify we have minimal data when entering prox"), and
    keeps every other axis at 0 until an event carries it: the pressure's proximity minimum
    starts from what the driver holds there, and its filters start there as at a proximity-in."""
    absinfo, frames = read_trace(trace)
    if seen_from is not None:
        frames = _seen_after_grab(frames, seen_from, absinfo)
    x_res, y_res = absinfo[0][2] or 1, absinfo[1][2] or 1
    max_z = absinfo.get(0x18, (0, 0, 0))[1]
    def tilt_off(code):
        lo, hi, res = absinfo.get(code, (0, 0, 0))
        return 0 if res else -int((lo + hi) / 2)
    tilt_offsets = {0x1a: tilt_off(0x1a), 0x1b: tilt_off(0x1b)}
    axes = {code: lo for code, (lo, _, _) in absinfo.items()}
    tool, out = None, []
    old = None            # the last state sent (priv->oldState); None out of proximity
    min_p = max_raw = 0
    window = []
    n = options["raw_sample"]
    def normalize(raw):
        p, span = raw, max_z
        if options["recalibrate"]:
            p, span = raw - min_p, max_z - min_p
        return _scale(p, MAX_CURVE, span) if span >= 1 else MAX_CURVE
    def press_button(buttons, pressure, old_buttons):
        if pressure < options["threshold"]:
            buttons &= ~1
            if old_buttons & 1 and options["threshold"] > TOLERANCE and pressure > options["threshold"] - TOLERANCE:
                buttons |= 1
        else:
            buttons |= 1
        return buttons
    for t, events in frames:
        for typ, code, value in events:
            if typ == 3:
                axes[code] = value
            elif typ == 1 and code in TOOL_KEYS:
                tool = TOOL_KEYS[code] if value else None
        if tool is None:
            if old is not None:
                out.append({"type": "proximity", "state": "out", "time": t, "tip": "up", "x": old["x"], "y": old["y"], "pressure": 0.0})
            old = None
            continue
        entering = old is None
        old_buttons = 0 if entering else old["buttons"]
        raw = axes.get(0x18, 0)
        prev_min = 0 if entering else min_p
        if entering:
            max_raw = raw
            min_p = raw
        else:
            min_p = min(min_p, raw)
        pressure = normalize(raw)
        buttons = press_button(0, pressure, old_buttons)
        if buttons & 1:
            max_raw = 0
        elif max_raw:
            max_raw = max(max_raw, raw)
            buttons = press_button(buttons, normalize(max_raw), old_buttons)
            if (buttons & 1 and min_p == prev_min) or not min_p:
                max_raw = 0
        # The filter's window starts full of the first sample (storeRawSample), then shifts.
        sample = (axes[0], axes[1], axes.get(0x1a, 0) + tilt_offsets[0x1a], axes.get(0x1b, 0) + tilt_offsets[0x1b])
        if entering or (buttons & 1 and not old_buttons & 1):
            window = [sample] * n
        else:
            window = [sample] + window[:n - 1]
        x, y, tx, ty = (int(sum(s[i] for s in window) / n) for i in range(4))
        if not entering:
            changed = (buttons != old_buttons or abs(tx - old["tx"]) > options["suppress"] or abs(ty - old["ty"]) > options["suppress"]
                       or abs(pressure - old["pressure_units"]) > options["suppress"])
            moved = abs(x - old["x_units"]) > options["suppress"] or abs(y - old["y_units"]) > options["suppress"]
            if not moved:
                x, y = old["x_units"], old["y_units"]
            if not changed and not moved:
                continue
        # The motion the app gets: the new axes with the button state as it was (the button
        # event follows it).
        out.append({"type": "proximity" if entering else "axis", "state": "in" if entering else None, "time": t,
                    "tip": "down" if old_buttons & 1 else "up", "pressing": bool(buttons & 1) and not old_buttons & 1,
                    "x": x / x_res, "y": y / y_res, "pressure": pressure / MAX_CURVE, "tool": {"type": tool}})
        old = {"buttons": buttons, "x_units": x, "y_units": y, "x": x / x_res, "y": y / y_res, "tx": tx, "ty": ty, "pressure_units": pressure}
    return out


def seen_from(trace, pause_at, speed):
    """The fail-safe's first report the display server reads (µs of the trace): the replay paused
    `pause_at` s into the played trace (at `speed`) while penkitd held the grab."""
    _, frames = read_trace(trace)
    return frames[0][0] + pause_at * speed * 1e6


def first_seen(report_times, trace, pause_at, speed):
    """The index in `report_times` (µs of the trace) of the fail-safe's first report the display
    server reads, None if there is none."""
    start = seen_from(trace, pause_at, speed)
    return next((i for i, t in enumerate(report_times) if t >= start), None)


def _seen_after_grab(frames, seen_from, absinfo):
    """The frames as the driver reads them when it reads nothing before `seen_from`: the first
    one it reads carries the tool key the kernel holds (EVIOCGKEY) and x and y where it gave none
    (EVIOCGABS); the axes it never read stay 0 in the driver (its channel was cleared)."""
    kernel_axes, kernel_tool, out = {}, None, []
    for t, events in frames:
        if t < seen_from:
            for typ, code, value in events:
                if typ == 3:
                    kernel_axes[code] = value
                elif typ == 1 and code in TOOL_KEYS:
                    kernel_tool = code if value else None
            continue
        if not out:
            first = list(events)
            codes = {(typ, code) for typ, code, _ in first}
            if kernel_tool is not None and not any(typ == 1 and code in TOOL_KEYS for typ, code, _ in first):
                first.insert(0, (1, kernel_tool, 1))
            for code in (0, 1):
                if (3, code) not in codes:
                    first.append((3, code, kernel_axes.get(code, 0)))
            # Every other axis: 0 in the driver until an event carries it (a tilt 0 after the
            # driver's offset: the raw middle of its range).
            def cleared(code):
                lo, hi, res = absinfo.get(code, (0, 0, 0))
                return int((lo + hi) / 2) if code in (0x1a, 0x1b) and not res else 0
            first = [(3, code, cleared(code)) for code in sorted(kernel_axes) if code not in (0, 1) and (3, code) not in codes] + first
            events = first
        out.append((t, events))
    return out


def virtual_events(expected):
    """penkit's virtual tablet through the driver with penkit's options (no filter, Threshold 1,
    no recalibration): libinput's expected events of the virtual tablet with the driver's
    pressure (the written value v = 1 + round(force · 65534), at least 2, in contact, 0 in hover;
    VirtualPen.pressureUnits) as floor(65536 · v / 65535) / 65536, and each motion with the tip
    state of the report before (the button event follows the motion)."""
    out, was_down = [], False
    for e in expected:
        e = dict(e)
        if e["type"] == "proximity" and e.get("state") == "in":
            was_down = False
        down = e["tip"] == "down"
        v = max(2, 1 + round(e.get("pressure", 0) * 65534)) if down else 0
        e["pressure"] = _scale(v, MAX_CURVE, 65535) / MAX_CURVE
        e["pressing"] = down and not was_down
        e["tip"] = "down" if was_down else "up"
        was_down = down
        out.append(e)
    return out
