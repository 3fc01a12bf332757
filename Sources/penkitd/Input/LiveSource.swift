import CThreadTuning
import Glibc
import Logging
import PenInput
import PenInputLinux
import PenKit
import Synchronization

/// Live tablets: a udev monitor admits tablet and tablet-pad nodes only (never a keyboard), each joins
/// one libinput path context, and the input thread (the only thread touching
/// libinput) turns its events into messages. Event times stay libinput's
/// microsecond kernel timestamps (CLOCK_MONOTONIC).
final class LiveSource: Sendable {
    /// `MessagePipeline.engineTick` in µs, the unit of the poll's timeout.
    private static let engineTickMicroseconds = UInt64(MessagePipeline.engineTick / .microseconds(1))
    /// How often the poll returns while UnplugFilter holds a lift back (µs).
    private static let unplugCheckMicroseconds: UInt64 = 5_000

    private let stopRequested = Atomic<Bool>(false)
    let quirksDirectory: String?

    init(quirksDirectory: String? = nil) { self.quirksDirectory = quirksDirectory }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }
    var isStopping: Bool { stopRequested.load(ordering: .relaxed) }

    /// Runs on the input thread until `requestStop`.
    func run(hub: Hub, pipeline: inout MessagePipeline, logger: Logger) throws {
        // Readings from pressure sources wake the poll too (its third descriptor), so their
        // updates go out as soon as they arrive, not at the next pen event or tick.
        let pressureWakeup = hub.pressureInbox?.wakeup ?? -1
        let monitor = try TabletMonitor()
        let context = try LibinputContext(
            quirksDirectory: quirksDirectory, logPriority: .info,
            admit: { UdevDevices.isTablet(devnode: $0) },
            log: { priority, message in
                let text = message.hasSuffix("\n") ? String(message.dropLast()) : message
                switch priority {
                case .debug: logger.debug("libinput: \(text)")
                case .info: logger.info("libinput: \(text)")
                case .error: logger.error("libinput: \(text)")
                }
            })
        var ids: [String: Int] = [:]       // sysname → penkitd device id
        var infos: [Int: DeviceInfo] = [:]
        var nodes: [String: String] = [:]  // sysname → devnode
        var nextID = 1
        var batch = OutboundBatch()
        var drained: [LibinputEvent] = []
        var unplugFilter = UnplugFilter()
        var backInTimeLogged = 0

        func apply(_ change: TabletMonitor.Change) {
            switch change {
            case .added(let devnode, let sysname):
                guard ids[sysname] == nil else { return }
                nodes[sysname] = devnode
                if context.addDevice(path: devnode) == nil {
                    logger.warning("libinput ignored a tablet", metadata: ["node": "\(devnode)"])
                }
            case .removed(_, let sysname):
                context.removeDevice(sysname: sysname)
            }
        }

        for change in monitor.present() { apply(change) }
        var fds = [pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: pressureWakeup, events: Int16(POLLIN), revents: 0)]
        while !isStopping {
            // Shortly before the pen's next report is due, the frame path runs once on a shadow
            // engine (FrameWarmer), so the report finds it in the cache. The batch is empty here:
            // each pass publishes what it made.
            var beforePoll = MonotonicClock.now()
            if let due = pipeline.warmUpDue, due <= beforePoll {
                pipeline.warmUp(now: beforePoll, scratch: &batch)
                beforePoll = MonotonicClock.now()
            }
            // The engine's timeouts (late updates, missing tilt) fire without input too.
            var wait = unplugFilter.isHolding ? Self.unplugCheckMicroseconds : Self.engineTickMicroseconds
            if let due = pipeline.warmUpDue, due > beforePoll { wait = min(wait, due - beforePoll) }
            let ready = penkit_poll_microseconds(&fds, 3, wait)
            if ready < 0, errno != EINTR { throw DaemonError("poll: \(String(cString: strerror(errno)))") }
            if fds[1].revents != 0 { for change in monitor.receive() { apply(change) } }
            if fds[2].revents != 0 { hub.pressureInbox?.acknowledgeWakeup() }
            // The engine's timeouts run to a time taken before libinput reads the kernel: every
            // event stamped before it is then read first, however late this thread runs (under
            // load, or an emulated guest), so a timeout never beats an update already queued.
            let now = MonotonicClock.now()
            try context.dispatch()
            drained.removeAll(keepingCapacity: true)
            context.drainEvents { drained.append($0) }
            // A lift straight out of proximity waits until it is clear whether the tablet was
            // unplugged with the pen down (then the stroke ends cancelled, not lifted).
            let events = unplugFilter.process(drained, now: now) { sysname in
                UdevDevices.isGone(devnode: nodes[sysname] ?? "/dev/input/\(sysname)")
            }
            for event in events {
                switch event {
                case .deviceAdded(let device):
                    let id = nextID
                    nextID += 1
                    ids[device.sysname] = id
                    let node = nodes[device.sysname] ?? "/dev/input/\(device.sysname)"
                    let info = pipeline.addDevice(DeviceInfo(
                        id: id, name: device.name, vendor: UInt16(truncatingIfNeeded: device.vendor),
                        product: UInt16(truncatingIfNeeded: device.product), source: node,
                        geometry: DeviceDescription.read(devnode: node).map { TabletGeometry($0) }, pad: device.pad))
                    infos[id] = info
                    logger.info(device.isTabletPad && !device.isTabletTool ? "tablet pad added" : "tablet added",
                                metadata: ["device": "\(id)", "name": "\(device.name)", "node": "\(info.source)"])
                    hub.deviceAdded(info)
                case .deviceRemoved(let device):
                    guard let id = ids.removeValue(forKey: device.sysname), let info = infos.removeValue(forKey: id) else { continue }
                    pipeline.removeDevice(id, at: MonotonicClock.now(), into: &batch)
                    hub.publish(batch)
                    batch.removeAll()
                    // With the warm-ups run so far, so that a log shows whether live input gets them.
                    logger.info("tablet removed", metadata: ["device": "\(id)", "warm_ups": "\(pipeline.warmUpsRun)"])
                    hub.deviceRemoved(info)
                case .tabletTool(let tabletEvent, let device):
                    guard let id = ids[device.sysname] else { continue }
                    pipeline.consume(tabletEvent, device: id, into: &batch)
                case .tabletPad(let padEvent, let device):
                    guard let id = ids[device.sysname] else { continue }
                    pipeline.consume(padEvent, device: id, into: &batch)
                case .other:
                    break
                }
            }
            // Logged at the 1st, 2nd, 4th, 8th… occurrence: seen, without one line per event.
            if pipeline.eventsBackInTime > backInTimeLogged, pipeline.eventsBackInTime >= 2 * backInTimeLogged {
                backInTimeLogged = pipeline.eventsBackInTime
                logger.warning("a tablet event was stamped earlier than the one before it; the engine kept its clock",
                               metadata: ["count": "\(backInTimeLogged)"])
            }
            pipeline.advance(to: now, into: &batch)
            if !batch.isEmpty {
                hub.publish(batch)
                batch.removeAll()
            }
        }
    }
}
