import PenInput
import PenKit
import Testing

/// penkitd cancels a stroke whose device is unplugged with the pen down: the tip-up libinput then
/// reports (from the kernel's key release on unregistering, or from its own suspend on removal)
/// must not end the stroke as a lift. The drag trace really ends with a lift straight out of
/// proximity (tip-up and proximity-out in one frame), decoded here as libinput reports it.
@Suite struct RemovalTipUpTests {
    static let device = LibinputDeviceInfo(sysname: "event7", name: "Wacom Intuos4 6x9", isTabletTool: true, isTabletPad: false)

    static func dragEvents() throws -> [LibinputEvent] {
        let trace = try TraceFile.load(path: TraceFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu"))
        let decoded = try TabletDecoder.decode(trace.devices[0].events, device: trace.devices[0].description)
        return decoded.map { .tabletTool($0, device: device) }
    }

    @Test func theTraceEndsWithALiftOutOfProximity() throws {
        let events = try Self.dragEvents()
        guard case .tabletTool(let tip, _) = events[events.count - 2], case .tabletTool(let out, _) = events[events.count - 1] else {
            Issue.record("no tablet events"); return
        }
        #expect(tip.kind == .tip && tip.state == .up)
        #expect(out.kind == .proximity && out.state == .proximityOut)
        #expect(tip.time == out.time)
    }

    @Test func aLiftOnAPresentDeviceIsReal() throws {
        let events = try Self.dragEvents()
        #expect(LibinputEvent.removalSynthesizedTipUps(in: events, isGone: { _ in false }).isEmpty)
    }

    @Test func aLiftOnAVanishedDeviceIsMadeUp() throws {
        let events = try Self.dragEvents()
        var asked: [String] = []
        let madeUp = LibinputEvent.removalSynthesizedTipUps(in: events, isGone: { asked.append($0); return true })
        #expect(madeUp == [events.count - 2])
        #expect(asked == ["event7"])  // asked only for the tip-up + proximity-out pair
    }

    @Test func aLiftFollowedByTheDeviceRemovalIsMadeUp() throws {
        let events = try Self.dragEvents() + [.deviceRemoved(Self.device)]
        #expect(LibinputEvent.removalSynthesizedTipUps(in: events) == [events.count - 3])
        let other = LibinputDeviceInfo(sysname: "event8", name: "other", isTabletTool: true, isTabletPad: false)
        #expect(LibinputEvent.removalSynthesizedTipUps(in: try Self.dragEvents() + [.deviceRemoved(other)]).isEmpty)
    }

    @Test func aTipUpBeforeALaterProximityOutIsReal() throws {
        // every tip-up of the tap trace comes frames before its proximity-out
        let trace = try TraceFile.load(path: TraceFixtures.trace("wacom-intuos4-6x9-stylus-tap.evemu"))
        let decoded = try TabletDecoder.decode(trace.devices[0].events, device: trace.devices[0].description)
        let events: [LibinputEvent] = decoded.map { .tabletTool($0, device: Self.device) } + [.deviceRemoved(Self.device)]
        #expect(decoded.contains { $0.kind == .tip && $0.state == .up })
        #expect(LibinputEvent.removalSynthesizedTipUps(in: events, isGone: { _ in true }).isEmpty)
    }
}
