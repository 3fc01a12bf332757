/// How penkit's virtual tablets are told apart from real ones.
///
/// The name (what `libinput list-devices`, a desktop's settings and KDE's per-name settings show)
/// says the device is penkit's and which tablet it stands for. The bus is BUS_VIRTUAL and vendor
/// and product are 0: penkit owns no USB id, and borrowing the real tablet's would make GNOME
/// (which keys tablet settings per vendor:product) apply the real tablet's area and pressure curve
/// to positions penkit has already mapped and shaped: applied twice. penkitd never reads a device
/// that carries this identity (it would read its own output).
package enum VirtualTabletIdentity {
    package static let namePrefix = "penkit virtual tablet"
    /// BUS_VIRTUAL (linux/input.h).
    package static let bustype: UInt16 = 0x06
    package static let vendor: UInt16 = 0
    package static let product: UInt16 = 0
    /// The longest name that keeps an eraser an eraser under Xorg's libinput driver: it names each
    /// tool's X device "NAME TOOL (0xSERIAL)" in 64 bytes (xf86-input-libinput,
    /// `xf86libinput_handle_tablet_tool_proximity`), and " Eraser (0x8…)", with the virtual tool's
    /// 8-digit serial, takes 20 of them (as " Pencil"; an airbrush's serial may lose its last
    /// digits). GTK 3 tells an eraser from a pen by "eraser" in that name
    /// (gdk/x11/gdkdevicemanager-xi2.c), so a cut suffix made Xournal++ draw with the eraser end
    /// (the desktop guest: "… Wacom Intuos Pro M Pen Er"). Within uinput's 80 bytes too.
    static let longestName = 63 - " Eraser (0x80000000)".utf8.count

    /// The virtual device's name for a real tablet named `real`: "penkit virtual tablet: " and the
    /// real name, shortened to `longestName` bytes as a person would read it: first a vendor the
    /// name says twice ("Wacom Co.,Ltd. Wacom Intuos Pro M Pen", a HID name), then the tool the
    /// drivers add themselves (a last " Pen" or " Stylus"), and only then cut.
    package static func name(for real: String) -> String {
        var shown = real
        let full = { "\(namePrefix): \(shown)" }
        let words = shown.split(separator: " ", omittingEmptySubsequences: false)
        if full().utf8.count > longestName, let again = words.dropFirst().firstIndex(of: words[0]) {
            shown = words[again...].joined(separator: " ")
        }
        for tool in [" Pen", " Stylus"] where full().utf8.count > longestName && shown.hasSuffix(tool) {
            shown.removeLast(tool.count)
        }
        var name = full()
        while name.utf8.count > longestName { name.removeLast() }
        return name
    }

    /// The serial the virtual tablet's tool carries for a real tool's serial: the real one with its
    /// top bit flipped (0, no serial, stays 0). Not the real serial: libinput keeps a tool that has
    /// a serial once per context, keyed by type and serial, shared by every tablet it comes into
    /// proximity on, and sets its pressure thresholds from the first of them (then moves them with
    /// a pressure offset detected on any; evdev-tablet.c `tablet_get_tool`,
    /// `detect_pressure_offset`). Sharing one with the real tablet, the compositor read the virtual
    /// tablet's pressure against the real tablet's thresholds when the real pen came first (up to
    /// 1 % of the range off, more after an offset), or, once penkitd let go, the real pen against
    /// the quirk's 2 and 1 on the real axis: contact at 2 of 2047 (the desktop guest's direct rows,
    /// about 550/65535 above libinput's own pressure).
    package static func toolSerial(ofReal serial: UInt64) -> UInt32 {
        let real = UInt32(truncatingIfNeeded: serial)
        return real == 0 ? 0 : real ^ 0x8000_0000
    }

    /// Whether a device is one of penkit's virtual tablets (penkitd's or another penkitd's).
    package static func isVirtualTablet(name: String) -> Bool {
        name.hasPrefix(namePrefix)
    }
}
