import Foundation
import PenInput
import PenKit

/// What penkitd knew of one tablet's tools (its flight recorder's `ToolLedger`), as a report
/// carries it: the tools in the order libinput first met them, with the time of each one's first
/// proximity-in, and when the engine learned (or unlearned) that a tool sends no tilt. A replay
/// of a window cut from a longer session (`penkit replay REPORT --check`) starts knowing what
/// penkitd knew where the replay starts, as penkitd's decoder and engine did.
struct RecordedTools: Equatable {
    struct Known: Equatable {
        var tool: ToolIdentity
        var since: UInt64
    }

    struct TiltChange: Equatable {
        /// 0: known before the oldest change penkitd kept.
        var time: UInt64
        var tool: ToolIdentity
        var withoutTilt: Bool
    }

    var known: [Known] = []
    var tiltChanges: [TiltChange] = []
    /// The proximity-outs libinput gave, with the time of the event before each.
    var proximityOuts: [LiveProximityOut] = []

    /// The tools libinput had met before `start`, in the order it met them.
    func tools(before start: UInt64) -> [ToolIdentity] {
        known.filter { $0.since < start }.map(\.tool)
    }

    /// The tools the engine knew at `start` to send no tilt.
    func withoutTilt(before start: UInt64) -> [ToolIdentity] {
        var tools: [ToolIdentity] = []
        for change in tiltChanges where change.time < start {
            tools.removeAll { $0 == change.tool }
            if change.withoutTilt { tools.append(change.tool) }
        }
        return tools
    }

    static func identity(_ type: Any, _ serial: Any, _ id: Any) -> ToolIdentity? {
        guard let type = (type as? String).flatMap(ToolType.init(rawValue:)),
              let serial = number(serial), let id = number(id) else { return nil }
        return ToolIdentity(type: type, serial: serial, id: id)
    }

    static func number(_ value: Any) -> UInt64? {
        (value as? NSNumber)?.uint64Value ?? (value as? Int).flatMap(UInt64.init(exactly:))
    }

    /// From the protocol's device object: `tools` rows [type, serial, id, µs] and `withoutTilt`
    /// rows [µs, type, serial, id, bool]. nil when a row is malformed.
    init?(protocolDevice device: [String: Any]) {
        for row in device["tools"] as? [[Any]] ?? [] {
            guard row.count == 4, let tool = Self.identity(row[0], row[1], row[2]), let since = Self.number(row[3]) else { return nil }
            known.append(Known(tool: tool, since: since))
        }
        for row in device["withoutTilt"] as? [[Any]] ?? [] {
            guard row.count == 5, let time = Self.number(row[0]), let tool = Self.identity(row[1], row[2], row[3]),
                  let without = row[4] as? Bool else { return nil }
            tiltChanges.append(TiltChange(time: time, tool: tool, withoutTilt: without))
        }
        // absent from reports of penkitd before it kept them
        for row in device["proximityOuts"] as? [[Any]] ?? [] {
            guard row.count == 2, let time = Self.number(row[0]), let after = Self.number(row[1]) else { return nil }
            proximityOuts.append(LiveProximityOut(time: time, after: after))
        }
    }

    init(known: [Known] = [], tiltChanges: [TiltChange] = [], proximityOuts: [LiveProximityOut] = []) {
        self.known = known
        self.tiltChanges = tiltChanges
        self.proximityOuts = proximityOuts
    }

    /// The report's YAML rows under `penkit:`, with penkitd's id of the device first:
    /// `tools` [device, type, serial, id, µs], `withoutTilt` [µs, device, type, serial, id, bool]
    /// and `proximityOuts` [device, µs, µs of the event before it].
    static func yaml(_ devices: [(id: Int, tools: RecordedTools)]) -> String {
        var y = ""
        let known = devices.flatMap { device in device.tools.known.map { (device.id, $0) } }
        y += known.isEmpty ? "  tools: []\n" : "  tools:\n"
        for (device, k) in known {
            y += "  - [\(device), \(k.tool.type.rawValue), \(k.tool.serial), \(k.tool.id), \(k.since)]\n"
        }
        let changes = devices.flatMap { device in device.tools.tiltChanges.map { (device.id, $0) } }
        y += changes.isEmpty ? "  withoutTilt: []\n" : "  withoutTilt:\n"
        for (device, c) in changes {
            y += "  - [\(c.time), \(device), \(c.tool.type.rawValue), \(c.tool.serial), \(c.tool.id), \(c.withoutTilt)]\n"
        }
        let outs = devices.flatMap { device in device.tools.proximityOuts.map { (device.id, $0) } }
        y += outs.isEmpty ? "  proximityOuts: []\n" : "  proximityOuts:\n"
        for (device, out) in outs { y += "  - [\(device), \(out.time), \(out.after)]\n" }
        return y
    }

    /// Each device's tools from the report's `penkit:` part, by penkitd's id.
    static func fromReport(_ penkit: [String: Any]) throws -> [Int: RecordedTools] {
        var devices: [Int: RecordedTools] = [:]
        for row in penkit["tools"] as? [[Any]] ?? [] {
            guard row.count == 5, let device = row[0] as? Int, let tool = identity(row[1], row[2], row[3]),
                  let since = number(row[4]) else {
                throw RuntimeFailure("a row of the report's `tools` is not [device, type, serial, id, µs]: \(row)")
            }
            devices[device, default: RecordedTools()].known.append(Known(tool: tool, since: since))
        }
        for row in penkit["withoutTilt"] as? [[Any]] ?? [] {
            guard row.count == 6, let time = number(row[0]), let device = row[1] as? Int,
                  let tool = identity(row[2], row[3], row[4]), let without = row[5] as? Bool else {
                throw RuntimeFailure("a row of the report's `withoutTilt` is not [µs, device, type, serial, id, bool]: \(row)")
            }
            devices[device, default: RecordedTools()].tiltChanges.append(TiltChange(time: time, tool: tool, withoutTilt: without))
        }
        for row in penkit["proximityOuts"] as? [[Any]] ?? [] {
            guard row.count == 3, let device = row[0] as? Int, let time = number(row[1]), let after = number(row[2]) else {
                throw RuntimeFailure("a row of the report's `proximityOuts` is not [device, µs, µs]: \(row)")
            }
            devices[device, default: RecordedTools()].proximityOuts.append(LiveProximityOut(time: time, after: after))
        }
        return devices
    }
}
