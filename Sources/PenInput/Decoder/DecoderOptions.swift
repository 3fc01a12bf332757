import PenKit

/// Options that change what libinput reports, so the decoder can match the live path.
package struct DecoderOptions: Sendable, Hashable {
    /// libinput's averaging of x, y and tilt over the last 4 samples. nil decides as libinput
    /// 1.22 does: the quirk AttrTabletSmoothing if one applies, else on except for tablets
    /// that take Wacom AES pens.
    package var smoothing: Bool?
    /// Resolution (units/mm) to assume when the device reports none; libinput ignores such devices.
    package var fallbackResolution: Int32?
    /// libwacom's data directory (stylus axes, AES tablets); nil behaves as libinput built
    /// without libwacom.
    package var libwacomDirectory: String?
    /// libinput quirks files or directories; empty applies no quirks.
    package var quirksPaths: [String]
    /// Decode as a libinput that has already seen this device release BTN_TOOL_PEN by itself, so
    /// it never forces a proximity-out (libinput learns that once per device and keeps it). For
    /// a replay of a window cut from a longer session (`penkit replay REPORT --check`).
    package var sendsOwnProximityOut: Bool
    /// Tools libinput already knew when decoding starts, in the order it met them. libinput
    /// keeps a tool with a serial by (type, serial) and the id of its first proximity (the
    /// DTH-2242's pen comes back as 0x80a but stays 0x802), and that id picks the tool's axes
    /// from libwacom: a window cut from a longer session must start knowing them.
    package var knownTools: [ToolIdentity]
    /// The proximity-outs the live libinput gave (`penkit record`'s header): each one's time and
    /// the time of the event libinput gave before it. One stamped after the report that followed
    /// it is libinput's 50 ms timer served late, with that report already queued (a loaded host):
    /// a replay reads the queued report first and sees no timeout, so the decoder fires the timer
    /// there, at that time, as libinput did. The others it makes itself.
    package var libinputProximityOuts: [LiveProximityOut]

    package init(smoothing: Bool? = nil, fallbackResolution: Int32? = nil,
                libwacomDirectory: String? = LibwacomDatabase.defaultDirectory,
                quirksPaths: [String] = Quirks.defaultPaths, sendsOwnProximityOut: Bool = false,
                knownTools: [ToolIdentity] = [], libinputProximityOuts: [LiveProximityOut] = []) {
        self.sendsOwnProximityOut = sendsOwnProximityOut
        self.knownTools = knownTools
        self.libinputProximityOuts = libinputProximityOuts
        self.smoothing = smoothing
        self.fallbackResolution = fallbackResolution
        self.libwacomDirectory = libwacomDirectory
        self.quirksPaths = quirksPaths
    }

    /// No quirks and no libwacom: the decoder follows only the device description.
    package static let standalone = DecoderOptions(libwacomDirectory: nil, quirksPaths: [])
}

/// A proximity-out the live libinput gave: its time, and the time of the event before it.
package struct LiveProximityOut: Sendable, Hashable, Comparable {
    package var time: UInt64
    package var after: UInt64

    package init(time: UInt64, after: UInt64) {
        self.time = time
        self.after = after
    }

    package static func < (a: Self, b: Self) -> Bool { (a.after, a.time) < (b.after, b.time) }
}
