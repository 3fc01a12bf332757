/// One event of a tablet pad (ExpressKeys, touch rings, touch strips) as libinput's
/// tablet-pad API reports it. Pads are their own device nodes on current kernels.
public struct PadEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case button, ring, strip
    }

    public var kind: Kind
    /// libinput's time, µs (CLOCK_MONOTONIC).
    public var time: UInt64
    /// The button number (0-based, libinput's numbering), or the ring's or strip's number.
    public var number: UInt32
    /// Buttons: pressed or released.
    public var pressed: Bool
    /// Rings: degrees clockwise from the ring's northernmost point, 0 ..< 360. Strips: 0 (top or
    /// left) ... 1. -1 when the finger left the ring or strip (libinput's convention).
    public var position: Double
    /// Rings and strips: the finger touched it (libinput's source "finger"); otherwise unknown.
    public var fromFinger: Bool
    /// The mode group this control belongs to, and that group's current mode.
    public var modeGroup: UInt32
    public var mode: UInt32

    public init(kind: Kind, time: UInt64, number: UInt32, pressed: Bool = false, position: Double = 0,
                fromFinger: Bool = false, modeGroup: UInt32 = 0, mode: UInt32 = 0) {
        self.kind = kind
        self.time = time
        self.number = number
        self.pressed = pressed
        self.position = position
        self.fromFinger = fromFinger
        self.modeGroup = modeGroup
        self.mode = mode
    }
}
