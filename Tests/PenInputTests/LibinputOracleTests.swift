import Foundation
@testable import PenInput
import PenKit
import Testing

/// The decoder against real libinput 1.22: every bundled trace was replayed through uinput in a
/// VM and libinput's events recorded as JSON lines (Tests/Fixtures/libinput/). Kinds, states,
/// tools and order must match exactly; numbers within 1e-3; times within the replay's jitter.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TraceFixtures.fixture("libinput"))))
struct LibinputOracleTests {
    /// Replay timing error: frames land within about a millisecond of their offset in the VM,
    /// and a forced proximity-out fires when the guest's timer is served.
    static let timeTolerance: UInt64 = 3_000
    static let valueTolerance = 1e-3

    @Test(arguments: TraceFixtures.evemuTraces)
    func decoderMatchesLibinput(trace name: String) throws {
        try compare(trace: name, fixtureSuffix: ".jsonl", options: DecoderOptions(), required: true)
    }

    /// libinput run with the quirk AttrTabletSmoothing=0, against the decoder's --no-smoothing.
    @Test(arguments: TraceFixtures.evemuTraces)
    func decoderWithoutSmoothingMatchesLibinput(trace name: String) throws {
        try compare(trace: name, fixtureSuffix: ".nosmooth.jsonl", options: DecoderOptions(smoothing: false), required: false)
    }

    private func compare(trace name: String, fixtureSuffix: String, options: DecoderOptions, required: Bool) throws {
        let fixture = TraceFixtures.fixture("libinput/" + name.replacingOccurrences(of: ".evemu", with: fixtureSuffix))
        guard FileManager.default.fileExists(atPath: fixture) else {
            if required { Issue.record("no libinput fixture for \(name)") }
            return
        }
        let expected = try TraceFixtures.lines(fixture).filter { !$0.isEmpty }.map { try OracleEvent(line: $0) }
        let trace = try TraceFile.load(path: TraceFixtures.trace(name))
        var actual: [OracleEvent] = []
        for device in trace.devices {
            guard let events = try? TabletDecoder.decode(device.events, device: device.description, options: options) else { continue }
            actual += try events.map { try OracleEvent(line: Substring($0.jsonLine())) }
        }
        let comparison = OracleComparison(expected: expected, actual: actual,
                                          timeTolerance: Self.timeTolerance, valueTolerance: Self.valueTolerance)
        print("oracle \(name)\(fixtureSuffix == ".jsonl" ? "" : " (no smoothing)"): \(comparison.summary)")
        for problem in comparison.problems.prefix(5) { Issue.record("\(name): \(problem)") }
    }
}

/// One tablet event as `TabletEvent.jsonLine()` writes it, read back for comparison.
struct OracleEvent {
    var label: String
    var time: UInt64
    var values: [String: Double]
    var changed: [String]

    init(line: Substring) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let type = object["type"] as? String, let time = (object["time"] as? NSNumber)?.uint64Value,
              let tool = object["tool"] as? [String: Any] else {
            throw TraceError(file: "fixture", line: 0, message: "not a tablet event: \(line)")
        }
        let toolType = tool["type"] as? String ?? "?"
        let serial = (tool["serial"] as? NSNumber)?.uint64Value ?? 0
        let id = (tool["id"] as? NSNumber)?.uint64Value ?? 0
        let state = object["state"] as? String ?? "-"
        let tip = object["tip"] as? String ?? "?"
        let button = (object["button"] as? NSNumber).map { " button \($0)" } ?? ""
        label = "\(type) \(state) tip \(tip) \(toolType) serial \(serial) id \(id)\(button)"
        self.time = time
        var values: [String: Double] = [:]
        for key in ["x", "y", "pressure", "distance", "tilt_x", "tilt_y", "rotation", "slider", "wheel", "wheel_discrete"] {
            if let number = object[key] as? NSNumber { values[key] = number.doubleValue }
        }
        self.values = values
        changed = (object["changed"] as? [String] ?? []).sorted()
    }
}

/// Event-by-event differences, and the largest deviations seen.
struct OracleComparison {
    var problems: [String] = []
    var compared = 0
    var maxValueDeviation = 0.0
    var maxTimeDeviation: UInt64 = 0

    init(expected: [OracleEvent], actual: [OracleEvent], timeTolerance: UInt64, valueTolerance: Double) {
        if expected.count != actual.count {
            problems.append("libinput sent \(expected.count) events, the decoder \(actual.count)")
        }
        let base = (expected.first?.time ?? 0, actual.first?.time ?? 0)
        for (i, (e, a)) in zip(expected, actual).enumerated() {
            compared += 1
            if e.label != a.label {
                problems.append("event \(i): libinput \(e.label), decoder \(a.label)")
                break  // later events are misaligned
            }
            let et = e.time &- base.0, at = a.time &- base.1
            let dt = et > at ? et - at : at - et
            maxTimeDeviation = max(maxTimeDeviation, dt)
            if dt > timeTolerance { problems.append("event \(i) (\(e.label)): time \(et) µs vs \(at) µs") }
            if Set(e.values.keys) != Set(a.values.keys) {
                problems.append("event \(i) (\(e.label)): axes \(e.values.keys.sorted()) vs \(a.values.keys.sorted())")
            }
            for (key, ev) in e.values {
                guard let av = a.values[key] else { continue }
                let d = abs(ev - av)
                maxValueDeviation = max(maxValueDeviation, d)
                if d > valueTolerance { problems.append("event \(i) (\(e.label)): \(key) \(ev) vs \(av)") }
            }
            if e.changed != a.changed {
                problems.append("event \(i) (\(e.label)): changed \(e.changed) vs \(a.changed)")
            }
        }
    }

    var summary: String {
        "\(compared) events compared, max value deviation \(maxValueDeviation), max time deviation \(maxTimeDeviation) µs, \(problems.count) problems"
    }
}
