import PenKit

/// Options that change what libinput reports, so the decoder can match the live path.
public struct DecoderOptions: Sendable, Hashable {
    /// libinput averages x, y and tilt over the last 4 samples unless the quirk
    /// AttrTabletSmoothing=0 turns it off.
    public var smoothing: Bool = true
    /// Resolution (units/mm) to assume when the device reports none; libinput ignores such devices.
    public var fallbackResolution: Int32? = nil
    public init(smoothing: Bool = true, fallbackResolution: Int32? = nil) {
        self.smoothing = smoothing
        self.fallbackResolution = fallbackResolution
    }
}

/// Turns raw evdev events of one device into the tablet-tool events libinput 1.22 emits.
public struct TabletDecoder: Sendable {
    public init(device: DeviceDescription, options: DecoderOptions = .init()) throws {
        throw DecoderError.notImplemented
    }

    /// Feeds one raw event; appends any tablet events it completes (at SYN_REPORT).
    public mutating func feed(_ event: EvdevEvent, into output: inout [TabletEvent]) {}

    /// Lets time pass without input, firing libinput's timers (the 50 ms forced proximity-out).
    public mutating func advance(to time: UInt64, into output: inout [TabletEvent]) {}
}

public enum DecoderError: Error, Sendable, Equatable {
    case notImplemented
}
