#!/usr/bin/env python3
"""penkit's pen in a GTK 4 window (docs/apps.md, "GTK 4"): the example to copy.

GTK gives the window its own pen (GtkGestureStylus, with the reports it coalesced: its backlog);
penkit gives every client the pen in tablet mm, ahead of the compositor, with predictions.
penkit.SurfacePairing pairs the two, report by report, learns the map from tablet mm to this
window, and from then on hands over penkit's samples and predictions in the window's own units.
The window draws:
- grey dots: GTK's own events (what the toolkit gave);
- black ink: penkit's samples for this window, as wide as their force;
- red: penkit's predictions (replaced by the next frame).

    python3 examples/gtk4-pen.py [--socket PATH] [--log FILE]

Without penkitd it still draws GTK's own events. Where GTK gives the pen no tablet tool (GTK 4.8 on
X11 with Xorg's libinput driver) it draws the pointer GTK gives instead: positions, no pressure. --log writes one JSON line per GTK pen event
(tool type, pressure, position, time, the buttons held and the one that changed, and each backlog entry),
one per map change, and one per frame of penkit's it got and it drew: the desktop
guest (scripts/vm/desktop-guest.sh) checks what GTK gave against what penkit wrote.
Runs from a checkout as is (penkit's Python package is found beside it), or after
`pip install ./clients/python`.
"""
import argparse
import collections
import json
import os
import sys
import threading
import time

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

try:
    from penkit import AppPenEvent, SurfacePairing, candidate_sockets, discover
except ImportError:  # not installed: the package in this checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
    from penkit import AppPenEvent, SurfacePairing, candidate_sockets, discover

# What is kept for drawing is bounded: an app that runs for hours must not grow without bound.
KEEP_POINTS = 4096


# GDK's button masks by button number.
BUTTON_MASKS = ((1, Gdk.ModifierType.BUTTON1_MASK), (2, Gdk.ModifierType.BUTTON2_MASK), (3, Gdk.ModifierType.BUTTON3_MASK),
                (4, Gdk.ModifierType.BUTTON4_MASK), (5, Gdk.ModifierType.BUTTON5_MASK))


def held_buttons(state):
    return [n for n, mask in BUTTON_MASKS if state & mask]


class PenCanvas:
    def __init__(self, area, log):
        self.area, self.log = area, log
        self.pairing = None          # made once the window has its size (SurfacePairing needs it)
        self.own = collections.deque(maxlen=KEEP_POINTS)      # GTK's events: (x, y)
        self.ink = collections.deque(maxlen=KEEP_POINTS)      # penkit's samples: (x, y, force) or None between strokes
        self.predicted = []
        # penkit's messages from the reader thread, waiting for the main loop (take_penkit).
        self.inbox, self.inbox_lock, self.inbox_scheduled = [], threading.Lock(), False
        stylus = Gtk.GestureStylus()
        # Every button, not only the primary (GtkGestureSingle's default): a barrel button's press
        # and release then come as `down` and `up` with its number (get_current_button), which
        # GTK 4.8 on Wayland gives in no event's button state.
        stylus.set_button(0)
        for signal in ("proximity", "down", "motion", "up"):
            stylus.connect(signal, self.on_stylus, signal)
        area.add_controller(stylus)
        motion = Gtk.EventControllerMotion()
        motion.connect("leave", self.on_leave)
        # The fallback where GTK gives no tablet tool: GTK 4.8 on X11 with the libinput driver
        # (Xorg's default) delivers the pen as the core pointer, a mouse, and GtkGestureStylus
        # handles only events that have a tool (gtkgesturestylus.c); GDK's X11 backend makes a
        # tool only from xf86-input-wacom's "Wacom Serial IDs" and "Wacom Tool Type" properties
        # (gdkdevicemanager-xi2.c handle_property_change), which the libinput driver never sets.
        # Then the pen is drawn as a pointer: positions, the button as contact, no pressure
        # (PyGObject 3.42, Debian 12's, hands Python no GdkEvent to read its axes from).
        self.stylus_seen = False
        # GTK 4 on Wayland: its pen reports carry the time of the report before (pair_report).
        self.wayland = type(area.get_display()).__name__ == "GdkWaylandDisplay"
        self.held_report = None
        motion.connect("motion", self.on_pointer_motion)
        area.add_controller(motion)

        area.set_draw_func(self.draw)

    def write_log(self, line):
        if self.log:
            self.log.write(json.dumps(line) + "\n")
            self.log.flush()

    def ensure_pairing(self):
        if self.pairing is None:
            self.pairing = SurfacePairing(surface_width=self.area.get_width(), surface_height=self.area.get_height())
        return self.pairing

    def on_stylus(self, gesture, x, y, signal):
        tool = gesture.get_device_tool()
        self.stylus_seen = self.stylus_seen or tool is not None
        source = str(tool.get_serial()) if tool else ""
        # The reports GTK coalesced into this event come first, each with its own time (ms).
        ok, backlog = gesture.get_backlog()
        entries = [(c.time, c.axes[Gdk.AxisUse.X], c.axes[Gdk.AxisUse.Y], c.axes[Gdk.AxisUse.PRESSURE]) for c in (backlog if ok else [])]
        now = gesture.get_current_event_time()
        pressure = gesture.get_axis(Gdk.AxisUse.PRESSURE)
        self.write_log({"signal": signal, "time": now, "x": x, "y": y,
                        "pressure": pressure[1] if pressure[0] else None,
                        "tool": tool.get_tool_type().value_nick if tool else None,
                        "serial": tool.get_serial() if tool else None,
                        "mono_ms": time.clock_gettime(time.CLOCK_MONOTONIC) * 1000,
                        "buttons": int(gesture.get_current_event_state() & Gdk.ModifierType.BUTTON1_MASK != 0),
                        # Every button held (GDK's numbers: 1 the tip, barrel buttons 2 and 3), and for
                        # down/up the one that changed: the desktop guest judges barrel buttons by them.
                        "held": held_buttons(gesture.get_current_event_state()),
                        "button": gesture.get_current_button() if signal in ("down", "up") else None,
                        "backlog": [{"time": t, "x": bx, "y": by, "pressure": bp} for t, bx, by, bp in entries]})
        # (Time 0: an event GTK made up, as on entering the window, with no report behind it.)
        reports = [(t, bx, by) for t, bx, by, _ in entries if (t, bx, by) != (now, x, y) and t]   # the event may close its own backlog
        for t, rx, ry in reports + ([(now, x, y)] if now else []):
            self.pair_report(t, rx, ry, source)
        self.own.append((x, y))
        self.area.queue_draw()

    def pair_report(self, time, x, y, source):
        """One of GTK's pen reports to the pairing. On Wayland GTK 4 stamps a tablet motion with the
        time of the tablet frame before it (gdk/wayland/gdkdevice-wayland.c: tablet_tool_handle_motion
        makes the event with pointer_info.time, which only tablet_tool_handle_frame, after the
        motion, sets): there a report's own time is the one the next report carries, so each waits
        for the next (one report, 5 ms at 200 Hz) and the last of a proximity is not paired. Not
        enough alone under sway, whose stamps wander by more (docs/virtual-tablet.md)."""
        if not self.wayland:
            self.deliver(self.ensure_pairing().handle_app_event(AppPenEvent(time, x, y, "move", source)))
            return
        held, self.held_report = self.held_report, (x, y, source)
        if held is not None and held[2] == source:
            self.deliver(self.ensure_pairing().handle_app_event(AppPenEvent(time, held[0], held[1], "move", source)))

    def on_pointer_motion(self, controller, x, y):
        device = controller.get_current_event_device()
        source = device.get_source() if device else None
        if self.stylus_seen or source == Gdk.InputSource.PEN:
            return   # the stylus gesture has it
        now = controller.get_current_event_time()
        down = controller.get_current_event_state() & Gdk.ModifierType.BUTTON1_MASK != 0
        self.write_log({"signal": "pointer-motion", "time": now, "x": x, "y": y, "buttons": int(down),
                        "mono_ms": time.clock_gettime(time.CLOCK_MONOTONIC) * 1000,
                        "device": device.get_name() if device else None,
                        "source": source.value_nick if source is not None else None})
        if now:
            self.deliver(self.ensure_pairing().handle_app_event(AppPenEvent(now, x, y, "move", "pointer")))
        if down:
            self.own.append((x, y))
            self.area.queue_draw()

    def on_key(self, controller, keyval, keycode, state):
        """With --log: a key press, the desktop guest's mark that every pen event before it is in."""
        self.write_log({"signal": "key", "key": Gdk.keyval_name(keyval)})
        return False

    def on_leave(self, controller):
        self.held_report = None   # (its time would be the leave's, not its own)
        if self.pairing is not None:
            self.deliver(self.pairing.handle_app_event(AppPenEvent(controller.get_current_event_time(), 0, 0, "out")))
        self.write_log({"signal": "leave", "time": controller.get_current_event_time()})

    def take_penkit(self, message):
        """On the reader thread: queues one of penkit's messages for the main loop. They go at the
        priority of GTK's own events, all that came in one call: at idle priority (GLib.idle_add's
        default) a busy window handled none of them while its pen events kept coming (under
        emulation frames came seconds after the events they pair with, or never)."""
        with self.inbox_lock:
            self.inbox.append(message)
            if len(self.inbox) > KEEP_POINTS:   # a main loop stalled for good: keep the newest
                del self.inbox[0]
            if self.inbox_scheduled:
                return
            self.inbox_scheduled = True
        GLib.idle_add(self.drain_penkit, priority=GLib.PRIORITY_DEFAULT)

    def drain_penkit(self):
        with self.inbox_lock:
            messages, self.inbox, self.inbox_scheduled = self.inbox, [], False
        for message in messages:
            self.on_penkit(message)
        return False

    def on_penkit(self, message):
        """On the main loop: one of penkit's messages."""
        if message.get("type") == "frame":
            # With --log: the frame's time (µs) and where penkit's virtual tablet put it, so that
            # the desktop guest's judge can see what there was to pair GTK's events with.
            self.write_log({"signal": "penkit-frame", "t": message["sample"]["t"],
                            "x": message["sample"]["x"], "y": message["sample"]["y"],
                            "delivered": message.get("delivered"),
                            "mono_ms": time.clock_gettime(time.CLOCK_MONOTONIC) * 1000})
        self.deliver(self.ensure_pairing().handle_message(message))
        return False

    def deliver(self, deliveries):
        for d in deliveries:
            kind = d.get("type")
            if kind == "frame":
                s = d.get("sample", {})
                # With --log: what is drawn, in this window's px (the judge checks it lies under GTK's pen).
                self.write_log({"signal": "ink", "t": s.get("t"), "x": s["x"], "y": s["y"]})
                self.ink.append((s["x"], s["y"], s.get("force", 0.0)))
                self.predicted = [(p["x"], p["y"]) for p in d.get("predicted", [])]
            elif kind == "ended":
                self.ink.append(None)
                self.predicted = []
            elif kind == "map":
                self.write_log({"signal": "map", "change": d.get("change"), "ready": d.get("ready"),
                                "transform": d.get("transform"), "rms": d.get("rms"), "pairs": d.get("pairs")})
        if deliveries:
            self.area.queue_draw()

    def draw(self, area, cr, width, height):
        cr.set_source_rgb(1, 1, 1)
        cr.paint()
        cr.set_source_rgb(0.6, 0.6, 0.6)
        for x, y in self.own:
            cr.rectangle(x - 1, y - 1, 2, 2)
        cr.fill()
        cr.set_source_rgb(0, 0, 0)
        last = None
        for point in self.ink:
            if point is not None and last is not None:
                cr.set_line_width(0.5 + 4 * point[2])
                cr.move_to(last[0], last[1])
                cr.line_to(point[0], point[1])
                cr.stroke()
            last = point
        cr.set_source_rgb(0.8, 0, 0)
        for x, y in self.predicted:
            cr.arc(x, y, 1.5, 0, 6.2832)
            cr.fill()


def read_penkit(path, canvas):
    """On a thread: penkit's frames, each handed to the main loop (SurfacePairing is not shared).
    Waits for penkitd (every second; said once) and connects again when it stops."""
    said = False
    while True:
        try:
            client = discover([path] if path else candidate_sockets())
        except OSError as error:
            if not said:
                print("gtk4-pen: drawing GTK's own events until penkitd answers: %s" % error, file=sys.stderr)
                said = True
            time.sleep(1)
            continue
        said = False
        try:
            client.subscribe(["frames", "updates", "strokes"])
            for message in client:
                canvas.take_penkit(message)
        except OSError as error:
            # penkitd stopped between accepting and our request (the desktop guest stops it
            # after each path): wait for the next one, as when it was never there.
            print("gtk4-pen: penkitd went away: %s" % error, file=sys.stderr)
            time.sleep(1)
        finally:
            client.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--socket", help="penkitd's socket (default: where penkit looks for it)")
    ap.add_argument("--log", help="a file for one JSON line per GTK pen event and map change")
    args = ap.parse_args()
    log = open(args.log, "a") if args.log else None
    app = Gtk.Application(application_id="org.penkit.Gtk4Pen", flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(app):
        window = Gtk.ApplicationWindow(application=app, title="penkit GTK 4 pen")
        window.set_default_size(1280, 720)
        area = Gtk.DrawingArea(hexpand=True, vexpand=True)
        window.set_child(area)
        canvas = PenCanvas(area, log)
        if log:
            keys = Gtk.EventControllerKey()
            keys.connect("key-pressed", canvas.on_key)
            window.add_controller(keys)
        window.present()
        canvas.write_log({"signal": "ready"})
        threading.Thread(target=read_penkit, args=(args.socket, canvas), daemon=True).start()

    app.connect("activate", activate)
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
