"""The eraser end and the barrel buttons as an app got them (issue 42: "the eraser end arrives as
an eraser, barrel buttons as buttons"), judged against the played trace.

The desktop guest plays a second trace for each app, server and path (scripts/vm/desktop.sh
cuts it from traces/wacom-cintiq-22hdt-pen.evemu: a pen tap, the eraser end's tap, a pen hover,
and a pen hover where BTN_STYLUS2 is pressed once and BTN_STYLUS once). What is expected comes from
that trace's key events, never from penkit:

- eraser: each contact (BTN_TOUCH press) after the first proximity (the warm-up: libinput may end
  a new device's first proximity early, scripts/vm/concat-traces.sh says why) is made by the tool
  of its proximity (BTN_TOOL_PEN: the pen, BTN_TOOL_RUBBER: the eraser). The app's contacts must
  end with that sequence (the warm-up's own contact may come before it, or be lost), and the trace
  must have an eraser contact for the check to mean anything. An app's contact is where its tip
  goes down: Chromium's `buttons` gaining 1 (the pen) or 32 (the eraser; Pointer Events: the eraser
  button is `buttons` 32), GTK's held buttons gaining 1, the tool being the event's
  GdkDeviceTool type (`pen` or `eraser`, GDK_DEVICE_TOOL_TYPE_ERASER).
- buttons: the trace's BTN_STYLUS and BTN_STYLUS2 presses, in order, must come as presses of the
  app's button for each (a press of the same button again before another's counts once:
  `barrel_repeats`, collapse says why), and no barrel button may be held when the app's log ends
  (none stuck). Which button an app gives for each is the app's and server's choice, from their
  sources or, where they disagree, from the direct path (the real tablet, no penkit): BARREL.
"""

import json, os, re

BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2 = 0x140, 0x141, 0x14A, 0x14B, 0x14C

# The app's button for each barrel button, per app, display server and Xorg input driver:
# Chromium's a bit of PointerEvent.buttons, GTK's a GDK button number.
BARREL = {
    # Chromium 156 on Ozone Wayland under sway 1.7 (which passes the tool's button code through,
    # sway/input/cursor.c handle_tool_button): BTN_STYLUS2 comes as the right button (buttons 2),
    # BTN_STYLUS as the middle one (4). Seen on the direct path, the real tablet without penkit,
    # by the presses' times; the opposite of the Chromium source we could read
    # (ui/ozone/platform/wayland/host/wayland_tablet_tool.cc of 2025, ButtonToEventFlags:
    # BTN_STYLUS → EF_RIGHT_MOUSE_BUTTON), and the same as Chromium on X11 below.
    ("chromium", "sway", "libinput"): {BTN_STYLUS: 4, BTN_STYLUS2: 2},
    # Chromium on X11 through xf86-input-libinput: its btn_linux2xorg gives BTN_STYLUS X button 2
    # (middle), BTN_STYLUS2 X button 3 (right); Chromium's X11 events: middle 4, right 2.
    ("chromium", "xorg", "libinput"): {BTN_STYLUS: 4, BTN_STYLUS2: 2},
    # GTK 4 on Wayland: gdk/wayland/gdkdevice-wayland.c tablet_tool_handle_button:
    # BTN_STYLUS → GDK_BUTTON_SECONDARY (3), BTN_STYLUS2 → GDK_BUTTON_MIDDLE (2).
    ("gtk", "sway", "libinput"): {BTN_STYLUS: 3, BTN_STYLUS2: 2},
    # GTK 4 on X11 through xf86-input-wacom: the stylus's barrel buttons are its X buttons 2
    # (BTN_STYLUS, the lower) and 3 (BTN_STYLUS2) (wcmUSB.c's button bits, xsetwacom's "Button 2"
    # and "Button 3"); GDK's X11 button numbers are X's.
    ("gtk", "xorg", "wacom"): {BTN_STYLUS: 2, BTN_STYLUS2: 3},
    ("gtk", "xorg", "libinput"): {BTN_STYLUS: 2, BTN_STYLUS2: 3},
}


# An app that has no eraser on a server: its eraser contacts come as the pen's, on the direct path
# (the real tablet, no penkit) as on the virtual one. There `eraser` is false and `eraser_limit`
# says why, and the run does not fail for it, provided the contacts are otherwise the trace's and,
# on the virtual path, the direct path's log shows the same (penkit's pen no worse than the real one).
ERASER_LIMITS = {
    ("chromium", "xorg", "libinput"): "Chromium on X11 gives the eraser end's contact as the pen's (buttons 1, not 32), "
                                      "the real tablet's too: it has no eraser there",
}


def trace_keys(path):
    """The trace's proximities in order: [{"tool": "pen"|"eraser", "contacts": n, "barrel": [(code, pressed)]}]."""
    proximities, current = [], None
    for line in open(path):
        p = line.split()
        if p[:1] != ["E:"] or int(p[2], 16) != 1:
            continue
        code, value = int(p[3], 16), int(p[4])
        if code in (BTN_TOOL_PEN, BTN_TOOL_RUBBER):
            if value:
                current = {"tool": "pen" if code == BTN_TOOL_PEN else "eraser", "contacts": 0, "barrel": []}
                proximities.append(current)
            else:
                current = None
        elif current is not None and code == BTN_TOUCH and value:
            current["contacts"] += 1
        elif current is not None and code in (BTN_STYLUS, BTN_STYLUS2):
            current["barrel"].append((code, bool(value)))
    return proximities


def transitions(states):
    """[(held set, tool)] in order → the presses and releases: [(button, pressed, tool)]."""
    out, before = [], set()
    for held, tool in states:
        out += [(b, True, tool) for b in sorted(held - before)] + [(b, False, tool) for b in sorted(before - held)]
        before = held
    return out


def chromium_states(events):
    """Chromium's pen events (scripts/desktop/pointer-log.html lines) → the bits of `buttons` held."""
    return [({bit for bit in (1, 2, 4, 8, 16, 32) if e["b"] & bit}, None) for e in events if e["kind"] == "pen"]


def gtk_states(lines):
    """GTK's stylus signals (examples/gtk4-pen.py --log) → the buttons held and the tool: the tip
    from the event's button state, a barrel button from the `down` that carries its number (GTK 4.8
    on Wayland puts no barrel button in the state). GTK's `up` carries no number (0): an `up`
    without the tip held releases the barrel button pressed last (on X11 the state then has it)."""
    barrel, out = [], []
    for l in lines:
        signal, button, held = l.get("signal"), l.get("button"), set(l.get("held") or [])
        if signal not in ("proximity", "down", "motion", "up"):
            continue
        if signal == "down" and button and button != 1 and button not in barrel:
            barrel.append(button)
        elif signal == "up" and barrel:
            if button in barrel:
                barrel.remove(button)
            elif not button and 1 not in held:
                barrel.pop()
        out.append(((held - {2, 3}) | set(barrel), l.get("tool")))
    return out


def collapse(buttons):
    """A press of the same button again before any other button's is one press: Chromium on sway
    lets a held barrel button go in a motion and takes it again (both paths, the real tablet's
    too); counted apart (`barrel_repeats`), not judged."""
    return [b for i, b in enumerate(buttons) if i == 0 or b != buttons[i - 1]]


def judge(app, server, driver, states, trace):
    """(eraser, buttons, details, problems) for an app's states against the trace."""
    problems, details = [], {}
    proximities = trace_keys(trace)
    wanted_contacts = [p["tool"] for p in proximities[1:] for _ in range(p["contacts"])]
    warm_up = [proximities[0]["tool"]] * proximities[0]["contacts"] if proximities else []
    changes = transitions(states)
    if app == "chromium":
        got_contacts = ["eraser" if b == 32 else "pen" for b, pressed, _ in changes if pressed and b in (1, 32)]
    else:
        got_contacts = [tool for b, pressed, tool in changes if pressed and b == 1]
    details["contacts_expected"], details["contacts_got"] = wanted_contacts, got_contacts
    if "eraser" not in wanted_contacts:
        problems.append("the played tools trace has no eraser contact after its first proximity: nothing to judge")
        eraser = False
    else:
        eraser = any(got_contacts == warm_up[k:] + wanted_contacts for k in range(len(warm_up) + 1))
        if not eraser:
            problems.append("eraser: the app's contacts were %s, the trace's %s (after the warm-up's %s)"
                            % (got_contacts, wanted_contacts, warm_up))
    mapping = BARREL.get((app, server, driver))
    wanted_barrel = [(code, pressed) for p in proximities for code, pressed in p["barrel"]]
    if mapping is None:
        problems.append("buttons: no known barrel-button mapping for %s on %s (%s)" % (app, server, driver))
        return eraser, False, details, problems
    barrel_bits = set(mapping.values())
    want = collapse([mapping[code] for code, pressed in wanted_barrel if pressed])
    presses = [b for b, pressed, _ in changes if b in barrel_bits and pressed]
    got = collapse(presses)
    # Held at the end: a barrel button the app still has down after the pen left (stuck).
    stuck = sorted(states[-1][0] & barrel_bits) if states else []
    details["barrel_expected"], details["barrel_got"] = want, got
    details["barrel_repeats"] = len(presses) - len(got)
    if not want:
        problems.append("the played tools trace has no barrel-button press: nothing to judge")
        buttons = False
    else:
        buttons = got == want and not stuck
        if got != want:
            problems.append("buttons: the app's barrel-button presses were %s, the trace's %s" % (got, want))
        if stuck:
            problems.append("buttons: %s still held at the end of the app's log" % stuck)
    return eraser, buttons, details, problems


def read_states(app, log):
    """The app's log of the tools trace's play → its states (chromium_states or gtk_states)."""
    if app == "chromium":
        events = []
        for line in open(log, errors="replace"):
            m = re.search(r'"pe (\{.*\})", source:', line)
            if m:
                events.append(json.loads(m.group(1)))
        return chromium_states(events)
    return gtk_states([json.loads(l) for l in open(log) if l.startswith("{")])


def row_keys(app, server, driver, log, trace, row, problems):
    """Sets row's `eraser` and `buttons` (and `tools`: what each was judged on) from the app's log
    of the tools trace; appends each failed check's reason to problems."""
    if not os.path.exists(log):
        row["eraser"] = row["buttons"] = False
        problems.append("eraser and buttons: no app log of the tools trace (%s): the guest did not play it" % log)
        return
    eraser, buttons, details, found = judge(app, server, driver, read_states(app, log), trace)
    row["eraser"], row["buttons"], row["tools"] = eraser, buttons, details
    limit = ERASER_LIMITS.get((app, server, driver))
    if not eraser and limit and eraser_as_pen(details):
        direct = log.replace("-virtual-tools.log", "-direct-tools.log")
        if direct == log or (os.path.exists(direct) and eraser_as_pen(judge(app, server, driver, read_states(app, direct), trace)[2])):
            row["eraser_limit"] = limit
            found = [f for f in found if not f.startswith("eraser:")]
        else:
            found.append("eraser: the direct path's app log does not show the same (%s)" % direct)
    problems.extend(found)


def eraser_as_pen(details):
    """The app's contacts are the trace's with each eraser contact made by the pen."""
    want = ["pen" for _ in details["contacts_expected"]]
    got = details["contacts_got"]
    return "eraser" in details["contacts_expected"] and len(got) >= len(want) and got[len(got) - len(want):] == want and "eraser" not in got
