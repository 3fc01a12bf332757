import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// The repository's traces, found from this file (never via ../shared), decoded
/// for the engine, and the reference tablet events to check the engine against:
/// real libinput's, from Tests/Fixtures/libinput/NAME.jsonl.
enum Traces {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var all: [String] {
        let dir = repoRoot.appendingPathComponent("traces").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".evemu") }.sorted()
    }

    static func path(_ name: String) -> String { repoRoot.appendingPathComponent("traces/\(name)").path }

    /// Every usable device's events, merged by time (stable).
    static func inputs(_ name: String) throws -> [EngineReplay.Input] {
        let trace = try TraceFile.load(path: path(name))
        var inputs: [(Int, EngineReplay.Input)] = []
        for (index, device) in trace.devices.enumerated() {
            guard let events = try? TabletDecoder.decode(device.events, device: device.description) else { continue }
            for e in events { inputs.append((inputs.count, EngineReplay.Input(device: UInt32(index), event: e))) }
        }
        inputs.sort { ($0.1.event.time, $0.0) < ($1.1.event.time, $1.0) }
        return inputs.map(\.1)
    }

    static func fixturePath(_ name: String) -> String {
        let base = name.hasSuffix(".evemu") ? String(name.dropLast(6)) : name
        return repoRoot.appendingPathComponent("Tests/Fixtures/libinput/\(base).jsonl").path
    }

    /// Reference events: always real libinput's, never the decoder's own output (which would
    /// check the engine against the code that fed it). Every trace has a fixture; a fixture from a
    /// run its oracle marked NOT FAITHFUL differs from the decoder only in the times of forced
    /// proximity-outs (LibinputOracleTests holds it to that), which no check here reads.
    static func reference(_ name: String) throws -> (source: String, events: [ReferenceEvent]) {
        let text = try String(contentsOfFile: fixturePath(name), encoding: .utf8)
        let events = try text.split(separator: "\n").compactMap { try ReferenceEvent(jsonLine: String($0)) }
        return ("libinput", events)
    }
}

/// The fields of a tablet event the checks need, from either source.
struct ReferenceEvent {
    var type: String
    var state: String?
    var time: UInt64
    var tool: ToolIdentity
    var tipDown: Bool
    var pressure: Double?
    var distance: Double?
    var tiltX: Double?
    var tiltY: Double?

    init(_ e: TabletEvent) {
        type = e.kind.rawValue
        state = e.state?.rawValue
        time = e.time
        tool = e.tool
        tipDown = e.tipDown
        pressure = e.toolAxes.contains(.pressure) ? e.axes.pressure : nil
        distance = e.toolAxes.contains(.distance) ? e.axes.distance : nil
        tiltX = e.toolAxes.contains(.tiltX) ? e.axes.tiltX : nil
        tiltY = e.toolAxes.contains(.tiltY) ? e.axes.tiltY : nil
    }

    /// One line of TabletEvent.jsonLine() form; nil for lines that are not tablet events.
    init?(jsonLine: String) throws {
        guard let o = try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any],
              let type = o["type"] as? String, let time = (o["time"] as? NSNumber)?.uint64Value,
              let tool = o["tool"] as? [String: Any], let toolType = (tool["type"] as? String).flatMap(ToolType.init)
        else { return nil }
        self.type = type
        state = o["state"] as? String
        self.time = time
        self.tool = ToolIdentity(type: toolType, serial: (tool["serial"] as? NSNumber)?.uint64Value ?? 0,
                                 id: (tool["id"] as? NSNumber)?.uint64Value ?? 0)
        tipDown = (o["tip"] as? String) == "down"
        pressure = (o["pressure"] as? NSNumber)?.doubleValue
        distance = (o["distance"] as? NSNumber)?.doubleValue
        tiltX = (o["tilt_x"] as? NSNumber)?.doubleValue
        tiltY = (o["tilt_y"] as? NSNumber)?.doubleValue
    }
}

struct TipPair {
    var tool: ToolIdentity
    var down: UInt64
    var up: UInt64
}

extension Array where Element == ReferenceEvent {
    /// libinput's tip down … tip up pairs, in order.
    var tipPairs: [TipPair] {
        var open: [ToolIdentity: UInt64] = [:]
        var pairs: [TipPair] = []
        for e in self where e.type == "tip" {
            if e.state == "down" { open[e.tool] = e.time }
            else if e.state == "up", let down = open.removeValue(forKey: e.tool) {
                pairs.append(TipPair(tool: e.tool, down: down, up: e.time))
            }
        }
        return pairs.sorted { $0.down < $1.down }
    }

    /// The last axis, tip or proximity event of each tool at each timestamp (button
    /// events may carry other axis values, and the engine makes no sample of them).
    var byTime: [ToolTime: ReferenceEvent] {
        var map: [ToolTime: ReferenceEvent] = [:]
        for e in self where e.type != "button" { map[ToolTime(e.tool, e.time)] = e }
        return map
    }

    /// As `byTime`, but a proximity-out does not replace the tool's axis or tip event at the same
    /// time: one report can end in two kernel frames, the last axes and then the tool leaving, and
    /// libinput's two events for them can carry different axis values (the Intuos Pro M's
    /// three-vertical-strokes at 1.299852 s: tilt_y −0.75° in the axis event, 0 in the
    /// proximity-out). The engine's sample is the axis event's.
    var byTimeBeforeProximityOut: [ToolTime: ReferenceEvent] {
        var map: [ToolTime: ReferenceEvent] = [:]
        for e in self where e.type != "button" {
            let key = ToolTime(e.tool, e.time)
            if e.type == "proximity" && e.state == "out" && map[key] != nil { continue }
            map[key] = e
        }
        return map
    }
}

extension Array where Element == EngineMessage {
    var finalized: [FinalizedStroke] {
        compactMap { if case .stroke(let s) = $0 { s } else { nil } }
    }
    var frames: [Frame] {
        compactMap { if case .frame(let f) = $0 { f } else { nil } }
    }
    var updates: [SampleUpdate] {
        compactMap { if case .update(let u) = $0 { u } else { nil } }
    }
}

struct ToolTime: Hashable {
    var tool: ToolIdentity
    var time: UInt64
    init(_ tool: ToolIdentity, _ time: UInt64) {
        self.tool = tool
        self.time = time
    }
}
