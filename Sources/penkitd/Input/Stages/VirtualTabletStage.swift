import Logging
import PenEngine
import PenInput
import PenInputLinux
import PenKit
import PenVirtualTablet

/// penkitd's way out to ordinary apps (`virtual-tablet = on`): one uinput tablet per real pen
/// tablet, written on the input thread as each event is processed, which the compositor reads
/// like any tablet. While it carries the pen, the real device is grabbed (TabletGrabs), so apps
/// get the pen once.
///
/// What it writes is VirtualPen's: the real pen, mapped and shaped once, filtered for jitter;
/// never a prediction. If the virtual tablet cannot be made or written, the real device is left
/// (or given back) to the compositor: the pen keeps working, without penkit.
struct VirtualTabletStage: PipelineStage {
    private struct Tablet {
        var pen: VirtualPen
        let device: any VirtualTabletOutput
        let real: DeviceDescription
        let width: Double, height: Double
    }

    private let grabs: (any TabletGrabbing)?
    /// `virtual-tablet-lead-ms`: how far ahead, on penkit's prediction, the pen is written in contact.
    private let lead: VirtualTabletLead
    private let makeOutput: (DeviceDescription) throws -> any VirtualTabletOutput
    private let logger: Logger
    private var tablets: [Int: Tablet] = [:]
    private var scratch: [EvdevEvent] = []

    /// nil `grabs`: nothing to grab (a replay, or live input with the virtual tablet off).
    /// `makeOutput` creates the kernel device (uinput; the tests' stand-in where there is none).
    init(grabs: (any TabletGrabbing)?, logger: Logger, lead: VirtualTabletLead = VirtualTabletLead(milliseconds: 0),
         makeOutput: @escaping (DeviceDescription) throws -> any VirtualTabletOutput = { try UinputDevice(description: $0) }) {
        self.grabs = grabs
        self.lead = lead
        self.makeOutput = makeOutput
        self.logger = logger
        scratch.reserveCapacity(32)
    }

    /// A real tablet appeared: makes its virtual tablet, of the mapped space's size, and grabs the
    /// real one if no tool is near it.
    mutating func add(device id: Int, real: DeviceDescription, mapping: DeviceMapping?) {
        let size = mapping.map { ($0.width, $0.height) } ?? Self.sensorSize(real)
        guard let layout = VirtualTabletLayout(real: real, width: size.0, height: size.1) else { return }
        do {
            let device = try makeOutput(layout.description)
            tablets[id] = Tablet(pen: VirtualPen(layout: layout, smoothing: Self.libinputSmooths(real)), device: device, real: real,
                                 width: size.0, height: size.1)
            logger.info("virtual tablet created", metadata: ["device": "\(id)", "name": "\(layout.description.name)",
                                                              "node": "\(device.devnode)", "real": "\(real.name)",
                                                              "jitter_filter": "\(tablets[id]!.pen.smoothing ? "on" : "off, libinput does not smooth this tablet")"])
            DesktopSettingsNotice.warn(real, device: id, logger: logger)
            takeGrab(id)
        } catch {
            logger.error("cannot create the virtual tablet; the tablet stays with the compositor",
                         metadata: ["device": "\(id)", "error": "\(error)"])
        }
    }

    /// The real tablet went away: its virtual one lifts the pen and goes too.
    mutating func remove(device id: Int, at time: UInt64) {
        guard var tablet = tablets.removeValue(forKey: id) else { return }
        scratch.removeAll(keepingCapacity: true)
        tablet.pen.leave(at: time, into: &scratch)
        try? write(scratch, to: tablet.device)
        grabs?.unregister(device: id)
        logger.info("virtual tablet removed", metadata: ["device": "\(id)"])
    }

    /// Whether the pen is written ahead on penkit's prediction: then the engine runs first, and
    /// its frame comes to `consume`.
    var leads: Bool { !lead.isOff }

    /// Runs twice in the pipeline, before and after the engine (`call.engineRan`). Without a lead
    /// the pen is written before the engine runs: apps reading the compositor should not wait for
    /// the engine's prediction and encoding. With a lead (`virtual-tablet-lead-ms`) it needs that
    /// prediction, so it is written after. The frames then say where it put the pen (`DeliveryStamp`).
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .tool(let event, let device):
            guard call.engineRan == leads else { return }
            var prediction: Frame?
            if leads {
                for reply in call.replies {
                    if case .frame(let frame) = reply, frame.device == UInt32(device) { prediction = frame }
                }
            }
            call.delivered = consume(event, device: device, configuration: call.engine.configuration, prediction: prediction)
        case .deviceRemoved(let device, let time):
            if !call.engineRan { remove(device: device, at: time) }
        case .pad, .tick, .shutdown, .control, .resume:
            break
        }
    }

    /// Writes what `event` changes on the virtual tablet; returns where it put the pen (for the
    /// frame's `delivered`), nil when nothing was written. `prediction`: the engine's frame for
    /// the event, when the pen is written ahead (`leads`).
    mutating func consume(_ event: TabletEvent, device id: Int, configuration: EngineConfiguration,
                          prediction: Frame? = nil) -> DeliveredPosition? {
        let mapping = configuration.mappings[UInt32(id)]
        if event.kind == .proximity && event.state == .proximityIn { resizeIfRemapped(id, mapping: mapping) }
        guard var tablet = tablets[id] else { return nil }
        // While the real device is not grabbed the compositor reads it: writing too would double the pen.
        guard grabs == nil || grabs?.grabbed.contains(id) == true else {
            if event.kind == .proximity && event.state == .proximityOut { takeGrab(id) }
            return nil
        }
        scratch.removeAll(keepingCapacity: true)
        tablet.pen.translate(event, mapping: mapping, feel: configuration.feel(for: event.tool),
                             ahead: prediction.flatMap { lead.offset(in: $0) }, into: &scratch)
        tablets[id] = tablet
        guard !scratch.isEmpty else { return nil }
        do {
            try write(scratch, to: tablet.device)
        } catch {
            logger.error("writing the virtual tablet failed; the tablet goes back to the compositor",
                         metadata: ["device": "\(id)", "error": "\(error)"])
            grabs?.release(device: id, force: true)
            tablets[id] = nil
            return nil
        }
        // The time apps get for this report: the kernel stamps the virtual tablet's events as
        // they are written (SurfacePairing pairs app events by it).
        let written = MonotonicClock.now()
        return tablet.pen.delivered.map { DeliveredPosition(x: $0.x, y: $0.y, time: written) }
    }

    /// penkitd stops: every virtual pen lifts and leaves, the grabs go, then the virtual tablets.
    mutating func stop(at time: UInt64) {
        for id in tablets.keys.sorted() {
            guard var tablet = tablets[id] else { continue }
            scratch.removeAll(keepingCapacity: true)
            tablet.pen.leave(at: time, into: &scratch)
            try? write(scratch, to: tablet.device)
        }
        grabs?.releaseAll()
        tablets.removeAll()
    }

    /// A reload changed the device's area or rotation: the virtual tablet must be the new mapped
    /// space's size, or positions would stop at the old edges. Made anew at a proximity-in, never
    /// within a stroke; the compositor takes a moment to add it, so the first reports may not reach apps.
    private mutating func resizeIfRemapped(_ id: Int, mapping: DeviceMapping?) {
        guard let tablet = tablets[id], !tablet.pen.isInProximity else { return }
        let size = mapping.map { ($0.width, $0.height) } ?? Self.sensorSize(tablet.real)
        guard size.0 != tablet.width || size.1 != tablet.height else { return }
        logger.notice("the device's mapping changed: the virtual tablet is made anew at its new size",
                      metadata: ["device": "\(id)", "width_mm": "\(size.0)", "height_mm": "\(size.1)"])
        tablets[id] = nil
        guard let layout = VirtualTabletLayout(real: tablet.real, width: size.0, height: size.1) else { return }
        do {
            let device = try makeOutput(layout.description)
            tablets[id] = Tablet(pen: VirtualPen(layout: layout, smoothing: tablet.pen.smoothing), device: device, real: tablet.real,
                                 width: size.0, height: size.1)
        } catch {
            logger.error("cannot make the virtual tablet anew; the tablet goes back to the compositor",
                         metadata: ["device": "\(id)", "error": "\(error)"])
            // Between reports of a hover, never within a stroke: without a virtual tablet the real one must be read.
            grabs?.release(device: id, force: true)
        }
    }

    /// Whether the compositor's libinput would smooth the real device (the system's quirks, then
    /// libwacom: not for AES pens), decided as libinput decides it. The virtual tablet filters
    /// jitter only where libinput would have: a device libinput carries raw is carried raw, so no
    /// user sees trailing they did not see before (issue #43). A device the decoder cannot read
    /// is filtered, as before.
    static func libinputSmooths(_ real: DeviceDescription) -> Bool {
        (try? TabletDecoder(device: real).smoothing) ?? true
    }

    private mutating func takeGrab(_ id: Int) {
        guard let grabs else { return }
        switch grabs.grab(device: id) {
        case .grabbed:
            logger.info("tablet grabbed: apps get it through the virtual tablet", metadata: ["device": "\(id)"])
        case .toolPresent:
            logger.info("a tool is near the tablet; it is grabbed when the tool leaves", metadata: ["device": "\(id)"])
        case .failed(let reason):
            logger.error("cannot grab the tablet; the virtual tablet stays idle so apps do not get the pen twice",
                         metadata: ["device": "\(id)", "error": "\(reason)"])
        }
    }

    /// One write(2) for what VirtualPen made of one event (a frame, or a lift and a new proximity):
    /// the kernel stamps it at one instant, and the reader sees each SYN_REPORT's frame whole.
    private func write(_ events: [EvdevEvent], to device: any VirtualTabletOutput) throws {
        try device.write(events: events[...])
    }

    /// The sensor's size in mm (`VirtualTabletLayout.sensorSize`).
    static func sensorSize(_ real: DeviceDescription) -> (Double, Double) {
        VirtualTabletLayout.sensorSize(of: real)
    }
}

/// The uinput device a virtual tablet writes (UinputDevice; the tests' stand-in on a host without uinput).
protocol VirtualTabletOutput: AnyObject {
    var devnode: String { get }
    /// One write(2) of whole frames.
    func write(events: ArraySlice<EvdevEvent>) throws
}

extension UinputDevice: VirtualTabletOutput {}

/// Grabs on the real tablets (TabletGrabs; the tests' stand-in on a host without tablets).
protocol TabletGrabbing: AnyObject {
    var grabbed: Set<Int> { get }
    func grab(device id: Int) -> TabletGrabs.Outcome
    @discardableResult func release(device id: Int, force: Bool) -> Bool
    func unregister(device id: Int)
    func releaseAll()
}

extension TabletGrabs: TabletGrabbing {}
