import CLinuxCalls
import Glibc
import Logging
import PenInput
import PenInputLinux
import PenKit
import PenVirtualTablet

/// Live tablets: a udev monitor admits tablet and tablet-pad nodes only (never a keyboard), each
/// joins one libinput path context, and the input thread (the only thread touching libinput)
/// reads their events. Event times stay libinput's microsecond kernel timestamps (CLOCK_MONOTONIC).
/// Made on the input thread, and used there alone.
struct LiveSource: InputSource {
    /// How often the poll returns while UnplugFilter holds a lift back (µs).
    static let unplugCheckMicroseconds: UInt64 = 5_000

    private let context: LibinputContext
    private let monitor: TabletMonitor
    private let pressure: ControlQueue?
    private var ids: [String: Int] = [:]       // sysname → penkitd device id
    private var nodes: [String: String] = [:]  // sysname → devnode
    private var nextID = 1
    private var drained: [LibinputEvent] = []
    private var unplugFilter: UnplugFilter
    private var fds: [pollfd]
    private let logger: Logger
    /// The grabs the virtual tablet takes on the descriptors this source's libinput reads.
    let grabs: TabletGrabs
    /// The flight recorder and its own read-only descriptor per pen tablet; nil when it is off.
    private let recorder: FlightRecorder?
    private var taps: [Int: RawTabletTap] = [:]

    /// `pressure`'s eventfd wakes the poll too, so pressure sources' updates go out as soon as
    /// they arrive, not at the next pen event or tick.
    /// `unplugGrace` (µs): how long a lift straight out of proximity waits for its node to vanish.
    init(quirksDirectory: String? = nil, pressure: ControlQueue?, unplugGrace: UInt64, recorder: FlightRecorder? = nil,
         activity: DeviceActivity? = nil, logger: Logger) throws {
        self.pressure = pressure
        self.recorder = recorder
        unplugFilter = UnplugFilter(grace: unplugGrace)
        self.logger = logger
        monitor = try TabletMonitor()
        context = try LibinputContext(
            quirksDirectory: quirksDirectory, logPriority: .info,
            // Never a virtual tablet of penkit's: reading its own output would feed the pen back in.
            admit: { UdevDevices.isTablet(devnode: $0)
                && !VirtualTabletIdentity.isVirtualTablet(name: UdevDevices.inputName(devnode: $0) ?? "") },
            log: { priority, message in
                let text = message.hasSuffix("\n") ? String(message.dropLast()) : message
                switch priority {
                case .debug: logger.debug("libinput: \(text)")
                case .info: logger.info("libinput: \(text)")
                case .error: logger.error("libinput: \(text)")
                }
            })
        grabs = TabletGrabs(context: context, changed: { device, grabbed in
            recorder?.grabChanged(device: device, grabbed: grabbed)
            activity?.grabChanged(device: device, grabbed: grabbed)
        })
        fds = [pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0),
               pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0),
               pollfd(fd: pressure?.wakeup ?? -1, events: Int16(POLLIN), revents: 0)]
        for change in monitor.present() { apply(change) }
    }

    var isPaced: Bool { true }

    var nextWakeUp: UInt64? {
        unplugFilter.isHolding ? MonotonicClock.now() &+ Self.unplugCheckMicroseconds : nil
    }

    mutating func read(until deadline: UInt64, into items: inout [InputItem]) throws -> UInt64? {
        let start = MonotonicClock.now()
        let ready = penkit_poll_microseconds(&fds, 3, deadline > start ? deadline - start : 0)
        if ready < 0, errno != EINTR { throw DaemonError("poll: \(String(cString: strerror(errno)))") }
        if fds[1].revents != 0 { for change in monitor.receive() { apply(change) } }
        if fds[2].revents != 0 { pressure?.acknowledgeWakeup() }
        // The engine's timeouts run to a time taken before libinput reads the kernel: every
        // event stamped before it is then read first, however late this thread runs (under
        // load, or an emulated guest), so a timeout never beats an update already queued.
        let now = MonotonicClock.now()
        // The recorder's descriptors first: what libinput is about to read has reached them too.
        if let recorder { for tap in taps.values { tap.drain(into: recorder) } }
        try context.dispatch()
        drained.removeAll(keepingCapacity: true)
        context.drainEvents { drained.append($0) }
        // A lift straight out of proximity waits until it is clear whether the tablet was
        // unplugged with the pen down (then the stroke ends cancelled, not lifted).
        let events = unplugFilter.process(drained, now: now) { [nodes] sysname in
            UdevDevices.isGone(devnode: nodes[sysname] ?? "/dev/input/\(sysname)")
        }
        for event in events {
            switch event {
            case .deviceAdded(let device):
                let id = nextID
                nextID += 1
                ids[device.sysname] = id
                let node = nodes[device.sysname] ?? "/dev/input/\(device.sysname)"
                let description = DeviceDescription.read(devnode: node)
                // A pen's node only: a pad (or a node that is both) is never grabbed nor copied.
                let pen = device.isTabletTool && !device.isTabletPad
                if pen { grabs.register(device: id, devnode: node) }
                if pen, recorder != nil { taps[id] = RawTabletTap(device: id, devnode: node) }
                items.append(.deviceAdded(DeviceInfo(
                    id: id, name: device.name, vendor: UInt16(truncatingIfNeeded: device.vendor),
                    product: UInt16(truncatingIfNeeded: device.product), source: node,
                    geometry: description.map { TabletGeometry($0) }, pad: device.pad),
                    description: pen ? description : nil))
            case .deviceRemoved(let device):
                guard let id = ids.removeValue(forKey: device.sysname) else { continue }
                grabs.unregister(device: id)
                taps[id] = nil
                items.append(.deviceRemoved(id: id, time: MonotonicClock.now()))
            case .tabletTool(let tabletEvent, let device):
                guard let id = ids[device.sysname] else { continue }
                items.append(.tool(tabletEvent, device: id))
            case .tabletPad(let padEvent, let device):
                guard let id = ids[device.sysname] else { continue }
                items.append(.pad(padEvent, device: id))
            case .other:
                break
            }
        }
        return now
    }

    private mutating func apply(_ change: TabletMonitor.Change) {
        switch change {
        case .added(let devnode, let sysname):
            guard ids[sysname] == nil else { return }
            // A virtual tablet of penkit's is a tablet to udev; libinput would be refused it (`admit`)
            // and log each time. Left alone before that, quietly.
            if VirtualTabletIdentity.isVirtualTablet(name: UdevDevices.inputName(devnode: devnode) ?? "") {
                logger.debug("not reading a penkit virtual tablet", metadata: ["node": "\(devnode)"])
                return
            }
            nodes[sysname] = devnode
            if context.addDevice(path: devnode) == nil {
                logger.warning("libinput ignored a tablet", metadata: ["node": "\(devnode)"])
            }
        case .removed(_, let sysname):
            context.removeDevice(sysname: sysname)
        }
    }
}
