import PenInput
import PenInputLinux
import PenKit
import Testing

/// penkitd cancels a stroke whose tablet is unplugged with the pen down. Unplugging the drag
/// trace's tablet one second in (pen down) is modelled as the kernel does it: every pressed key
/// released in one last frame (input_dev_release_keys), decoded as libinput would see it.
@Suite struct UnplugFilterTests {
    static let device = LibinputDeviceInfo(sysname: "event7", name: "Wacom Intuos4 6x9", isTabletTool: true, isTabletPad: false)

    static func decoded(_ trace: String, cutAt seconds: Double? = nil) throws -> [LibinputEvent] {
        let file = try TraceFile.load(path: TraceFixtures.trace(trace))
        var events = file.devices[0].events
        if let seconds, let first = events.first?.time {
            let cut = first + UInt64(seconds * 1_000_000)
            events = events.filter { $0.time <= cut }
            let last = events.last!.time
            var down: [UInt16] = []
            for e in events where e.type == 1 {
                if e.value != 0 { if !down.contains(e.code) { down.append(e.code) } } else { down.removeAll { $0 == e.code } }
            }
            for code in down.sorted() { events.append(EvdevEvent(time: last + 8_000, type: 1, code: code, value: 0)) }
            events.append(EvdevEvent(time: last + 8_000, type: 0, code: 0, value: 1))
        }
        let tablet = try TabletDecoder.decode(events, device: file.devices[0].description)
        return tablet.map { .tabletTool($0, device: device) }
    }

    static func tipUps(_ events: [LibinputEvent]) -> Int {
        events.filter { if case .tabletTool(let e, _) = $0 { return e.kind == .tip && e.state == .up }; return false }.count
    }

    static func proximityOuts(_ events: [LibinputEvent]) -> Int {
        events.filter { if case .tabletTool(let e, _) = $0 { return e.kind == .proximity && e.state == .proximityOut }; return false }.count
    }

    @Test func anUnplugWithThePenDownLooksLikeALiftOutOfProximity() throws {
        let events = try Self.decoded("wacom-intuos4-6x9-stylus-drag.evemu", cutAt: 1.0)
        #expect(UnplugFilter.liftsOutOfProximity(in: events) == [events.count - 2])
        #expect(Self.proximityOuts(events) == 1)
    }

    @Test func theTracesHaveNoLiftOutOfProximity() throws {
        for trace in ["wacom-intuos4-6x9-stylus-tap.evemu", "wacom-intuos4-6x9-stylus-drag.evemu",
                      "wacom-cintiq-22hdt-pen.evemu", "wacom-dth2242-pen.evemu"] {
            let events = try Self.decoded(trace)
            #expect(UnplugFilter.liftsOutOfProximity(in: events).isEmpty, "\(trace)")
            var filter = UnplugFilter()
            #expect(filter.process(events, now: 0, isGone: { _ in true }) == events, "\(trace)")
        }
    }

    @Test func aVanishedDeviceLosesTheTipUp() throws {
        let events = try Self.decoded("wacom-intuos4-6x9-stylus-drag.evemu", cutAt: 1.0)
        var filter = UnplugFilter()
        let out = filter.process(events, now: 0, isGone: { _ in true })
        #expect(out.count == events.count - 1)
        #expect(Self.tipUps(out) == Self.tipUps(events) - 1)
        #expect(Self.proximityOuts(out) == 1)
        #expect(!filter.isHolding)
    }

    @Test func theDeviceRemovalDecidesToo() throws {
        let events = try Self.decoded("wacom-intuos4-6x9-stylus-drag.evemu", cutAt: 1.0)
        var filter = UnplugFilter()
        let first = filter.process(events, now: 0, isGone: { _ in false })
        #expect(first == Array(events.dropLast(2)))  // the pair waits
        #expect(filter.isHolding)
        #expect(filter.process([], now: 100_000, isGone: { _ in false }).isEmpty)
        let removed = filter.process([.deviceRemoved(Self.device)], now: 200_000, isGone: { _ in false })
        #expect(removed == [events[events.count - 1], .deviceRemoved(Self.device)])
    }

    @Test func aDeviceStillThereAfterTheGraceKeepsTheLift() throws {
        let events = try Self.decoded("wacom-intuos4-6x9-stylus-drag.evemu", cutAt: 1.0)
        var filter = UnplugFilter(grace: 500_000)
        var out = filter.process(events, now: 1_000_000, isGone: { _ in false })
        out += filter.process([], now: 1_400_000, isGone: { _ in false })
        #expect(out.count == events.count - 2)
        out += filter.process([], now: 1_500_000, isGone: { _ in false })
        #expect(out == events)
    }

    /// Issue #32: the grace is wall time. On a busy host penkitd may not run again until long
    /// after it: the node's removal is still asked first, so an unplug is never taken for a lift
    /// because the thread was late, and a device still there after the stall keeps its lift.
    @Test func aStalledThreadStillTellsAnUnplugFromALift() throws {
        let events = try Self.decoded("wacom-intuos4-6x9-stylus-drag.evemu", cutAt: 1.0)
        var unplugged = UnplugFilter(grace: 500_000)
        var out = unplugged.process(events, now: 1_000_000, isGone: { _ in false })
        // Next run 5 s later (10 graces): the node has gone meanwhile.
        out += unplugged.process([], now: 6_000_000, isGone: { _ in true })
        #expect(Self.tipUps(out) == Self.tipUps(events) - 1, "the unplug's tip-up is dropped")
        #expect(Self.proximityOuts(out) == 1)
        var lifted = UnplugFilter(grace: 500_000)
        out = lifted.process(events, now: 1_000_000, isGone: { _ in false })
        out += lifted.process([], now: 6_000_000, isGone: { _ in false })
        #expect(out == events, "a lift stays a lift")
    }
}
