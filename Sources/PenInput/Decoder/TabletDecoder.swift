import PenKit

/// Turns raw evdev events of one device into the tablet-tool events libinput 1.22 emits.
///
/// The input stage models what stands between a device and libinput: the kernel (which drops
/// events that repeat the current state and frames left empty), libevdev (which drops codes
/// libinput disabled, and resynchronises after SYN_DROPPED). The tablet stage follows libinput's
/// evdev-tablet.c state machine; its timer (the forced proximity-out) runs on event time.
package struct TabletDecoder: Sendable {
    let device: TabletDevice
    /// The codes the kernel delivers (the device's description), for `kernelPasses`.
    let kernelCodes: EventCodeBitmap

    // Kernel and libevdev state (EvdevInput.swift)
    var kernelKeys: [Bool]
    var kernelAbs: [Int32]
    var frameHasEvents = false
    var libevdevKeys: [Bool]
    var absValue: [Int32]
    var resyncTime: UInt64?

    // libinput's struct tablet_dispatch (TabletFrame.swift)
    var status: TabletStatus = .toolOutOfProximity
    var changed: TabletAxisSet = []
    var axes = RawAxes()
    var lastSmoothX: Int32 = 0
    var lastSmoothY: Int32 = 0
    var history: [RawAxes]
    var historyIndex = 0
    var historyCount = 0
    var currentValue: [Int32]
    var buttons: UInt16 = 0
    var prevButtons: UInt16 = 0
    var toolState: UInt32 = 0
    var prevToolState: UInt32 = 0
    var currentType: ToolType?
    var currentId: UInt32 = 0
    var currentSerial: UInt32 = 0
    var tools: [TabletTool] = []

    // The forced proximity-out (ProximityTimer.swift)
    var needToForceProximityOut = true
    var proximityOutExpiry: UInt64?
    var proximityOutForced = false
    var lastEventTime: UInt64 = 0
    var proximityOutInProgress = false
    /// `DecoderOptions.libinputProximityOuts` not yet passed.
    var liveProximityOuts: ArraySlice<LiveProximityOut> = []

    package init(device: DeviceDescription, options: DecoderOptions = .init()) throws {
        self.device = try TabletDevice(device, options: options)
        kernelCodes = EventCodeBitmap(device.codes)
        let keyCount = Int(Code.keyMax) + 1
        kernelKeys = Array(repeating: false, count: keyCount)
        libevdevKeys = kernelKeys
        kernelAbs = Array(repeating: 0, count: Code.absCount)
        for (code, info) in device.absInfo where Int(code) < Code.absCount { kernelAbs[Int(code)] = info.value }
        absValue = kernelAbs
        currentValue = Array(repeating: 0, count: Code.absCount)
        history = Array(repeating: RawAxes(), count: self.device.historySize)
        proximityOutForced = self.device.lacksToolPen
        if options.sendsOwnProximityOut { needToForceProximityOut = false }
        liveProximityOuts = options.libinputProximityOuts.sorted()[...]
        tools = options.knownTools.map {
            TabletTool(type: $0.type, serial: UInt32(truncatingIfNeeded: $0.serial),
                       id: UInt32(truncatingIfNeeded: $0.id), device: self.device)
        }
    }

    /// Whether x, y and tilt are averaged over the last 4 samples for this device.
    package var smoothing: Bool { device.historySize > 1 }

    /// Feeds one raw event; appends any tablet events it completes (at SYN_REPORT), and those
    /// of any timer that expired before it.
    package mutating func feed(_ event: EvdevEvent, into output: inout [TabletEvent]) {
        if !liveProximityOuts.isEmpty { fireLateTimer(before: event.time, into: &output) }
        fireTimers(upTo: event.time, into: &output)
        receive(event, into: &output)
    }

    /// Lets time pass without input, firing libinput's timers (the 50 ms forced proximity-out).
    package mutating func advance(to time: UInt64, into output: inout [TabletEvent]) {
        fireTimers(upTo: time, into: &output)
    }

    /// Decodes a whole recording of this device, ending with the timers a quiet second fires.
    package static func decode(_ events: [EvdevEvent], device: DeviceDescription,
                              options: DecoderOptions = .init()) throws -> [TabletEvent] {
        var decoder = try TabletDecoder(device: device, options: options)
        var output: [TabletEvent] = []
        for event in events { decoder.feed(event, into: &output) }
        if let last = events.last { decoder.advance(to: last.time.saturatingAdd(1_000_000), into: &output) }
        return output
    }
}
