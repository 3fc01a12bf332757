import PenInput

/// Tells a pen lifted straight out of proximity from a tablet unplugged with the pen down.
///
/// A device that vanishes with the pen down reaches libinput as a proximity-out from contact, in
/// two ways: the kernel releases every pressed key (BTN_TOUCH, BTN_TOOL_PEN) as it unregisters the
/// device, and libinput 1.22's tablet_suspend flushes a tool still in proximity when the device is
/// removed from the context. Either way libinput sends a tip-up and a proximity-out with the same
/// timestamp; taken at face value, the tip-up would end the interrupted stroke as a lift, where
/// without it the proximity-out cancels the stroke.
///
/// So such a pair (button releases may come between) is held back, with every later event of its
/// device, until it is known which it was: the device is gone (its DEVICE_REMOVED arrives, or
/// `isGone` says so: asked at once and on every later call) and the tip-up is dropped, or
/// `grace` µs pass with the device still there and everything goes on unchanged. Only a lift
/// straight out of proximity waits; none of the bundled traces has one. Not thread-safe: the
/// input thread owns it.
package struct UnplugFilter {
    package var grace: UInt64
    private var held: [String: (since: UInt64, events: [(event: LibinputEvent, tipUp: Bool)])] = [:]

    package init(grace: UInt64 = 500_000) { self.grace = grace }

    /// True while events of some device are held back.
    package var isHolding: Bool { !held.isEmpty }

    /// Takes one drain of the context (possibly empty) at `now` (µs, any clock that `grace` fits)
    /// and returns the events to act on, in order.
    package mutating func process(_ events: [LibinputEvent], now: UInt64,
                                 isGone: (String) -> Bool) -> [LibinputEvent] {
        let lifts = Self.liftsOutOfProximity(in: events)
        var out: [LibinputEvent] = []
        out.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
            switch event {
            case .tabletTool(_, let device) where held[device.sysname] != nil || lifts.contains(index):
                held[device.sysname, default: (now, [])].events.append((event, lifts.contains(index)))
            case .deviceRemoved(let device):
                release(device.sysname, dropTipUps: true, into: &out)
                out.append(event)
            default:
                out.append(event)
            }
        }
        for sysname in held.keys.sorted() {
            if isGone(sysname) {
                release(sysname, dropTipUps: true, into: &out)
            } else if let since = held[sysname]?.since, now &- since >= grace {
                release(sysname, dropTipUps: false, into: &out)
            }
        }
        return out
    }

    private mutating func release(_ sysname: String, dropTipUps: Bool, into out: inout [LibinputEvent]) {
        guard let entry = held.removeValue(forKey: sysname) else { return }
        for (event, tipUp) in entry.events where !(dropTipUps && tipUp) { out.append(event) }
    }

    /// Indices of tip-ups followed by a proximity-out of the same device and time (only button
    /// events between them).
    package static func liftsOutOfProximity(in events: [LibinputEvent]) -> Set<Int> {
        var result: Set<Int> = []
        for (i, event) in events.enumerated() {
            guard case .tabletTool(let tip, let device) = event, tip.kind == .tip, tip.state == .up else { continue }
            var j = i + 1
            while j < events.count, case .tabletTool(let e, let d) = events[j], d.sysname == device.sysname,
                  e.time == tip.time {
                if e.kind == .proximity, e.state == .proximityOut { result.insert(i); break }
                guard e.kind == .button else { break }
                j += 1
            }
        }
        return result
    }
}
