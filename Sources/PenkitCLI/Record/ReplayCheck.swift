import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit
import Yams

/// `penkit replay REPORT --check`: replays a `penkit record` report through the decoder and the
/// engine, as `--json` does, and compares the engine's messages (frame, began, update, ended,
/// stroke) with the ones penkitd sent in the recorded window, byte for byte, except:
///
/// - stroke ids, stroke `seq`, `updateIndex` and device ids, which count from where penkitd was
///   (each one counter for the whole engine, running before the window began): rebased by the
///   first stroke, the first sample that expected an update, and the device order;
/// - `delivered` (the virtual tablet's positions), which a replay has no virtual tablet for;
/// - when the window starts after penkitd opened the tablet: the prediction (`predicted`,
///   `expectedError`, `liftProbability`), which the engine calibrates on the tool's earlier
///   strokes, before the window; such messages are counted apart;
/// - what came before the window's first proximity-in (the replay cannot know what the pen was
///   doing before the window: its tool, its smoothing history), unless the window reaches back to
///   when penkitd opened the tablet; for a pen that names itself (ABS_MISC, MSC_SERIAL anywhere in
///   the window), the first proximity-in that carries those names; numbers may differ in their
///   last bits after it (the smoothing history sums in another order when the window starts after
///   earlier proximities), which the check reports apart.
///
/// What it cannot know, and so does not claim: the engine's state learned before a window that
/// starts after penkitd opened the tablet, beyond the counters above and the prediction's
/// calibration, and what the window itself shows (a tool whose first frame in it expects no
/// tilt was known to send none: the replay's engine starts knowing that; whether libinput had
/// seen the tablet release the pen by itself: both are tried):
/// - the decoder's pressure offset for a pen that presses while hovering high (libinput's rule
///   for worn springs), learned at the tool's earlier proximities: the first difference names
///   `sample.force`, and the check says what may explain it. Tools without a serial share that
///   state per tool type, as in libinput.
///
/// The replay decodes as penkitd did: with libinput's smoothing unless the report's settings say
/// penkitd read the tablet raw. Other settings (pressure curve, area, inks) are penkit's defaults:
/// a report from a penkitd configured otherwise differs, and the first difference says where.
enum ReplayCheck {
    static let engineTypes: Set<String> = ["frame", "began", "update", "ended", "stroke"]

    struct Report {
        var settings: [String: String]
        var messages: [String]
        /// The window reaches back to when penkitd opened every tablet: nothing was learned before it.
        var fromStart: Bool
        /// penkitd's id of each device of the report, in the report's order (a replay numbers them from 1).
        var deviceIDs: [Int]
    }

    static func run(_ command: ReplayCommand) throws {
        // The trace first: it refuses what is no file (a FIFO nobody writes to) at once, by name.
        let trace = try TraceFile.load(path: command.trace, readers: .all)
        let report = try load(command.trace)
        let smoothing = report.settings["smoothing"] != "false"
        // A window from the start holds everything penkitd's decoder saw; otherwise the pen is
        // known from its first proximity-in that names it as the pen names itself.
        let start = report.fromStart ? 0 : Self.firstKnownProximity(trace) ?? .max
        let recorded = report.messages.filter { line in
            guard let type = Self.type(line), engineTypes.contains(type) else { return false }
            return (Self.time(line) ?? 0) >= start
        }.map(Self.withoutDelivered)
        // libinput learns once per device whether the pen releases BTN_TOOL_PEN itself (until
        // then it forces a proximity-out after 50 ms without events). A window cut from a longer
        // session may start after it learned: the check tries both states it cannot know.
        let withoutTilt = Self.toolsLearnedWithoutTilt(recorded, deviceIDs: report.deviceIDs)
        // libinput keeps each tool as it first met it (a pen with a serial keeps its first id):
        // a window from a longer session starts knowing the tools its frames name.
        let knownTools = report.fromStart ? [:] : Self.toolsInWindow(recorded, deviceIDs: report.deviceIDs)
        var first: Result?
        for learnedProximityOut in report.fromStart ? [false] : [false, true] {
            let options = DecoderOptions(smoothing: smoothing ? nil : false, sendsOwnProximityOut: learnedProximityOut)
            let inputs = try Self.decode(trace, from: start, options: options, knownTools: knownTools)
            var replayed: [String] = []
            var engine = EngineReplay(prediction: EnginePrediction.penkit(smoothed: smoothing))
            engine.toolsWithoutTilt = withoutTilt
            engine.run(inputs) { message in
                let line = message.jsonLine()
                if (Self.time(line) ?? 0) >= start { replayed.append(line) }
            }
            var result = compare(recorded: recorded, replayed: replayed, learnedBefore: !report.fromStart, deviceIDs: report.deviceIDs)
            if result.matches {
                if !withoutTilt.isEmpty {
                    result.summary += "; \(withoutTilt.count) tool(s) replayed as penkitd knew them before the window: sending no tilt"
                }
                if learnedProximityOut {
                    result.summary += "; decoded as a device that penkitd had already seen release the pen by itself, before the window"
                }
                print(result.summary)
                return
            }
            first = first ?? result
        }
        print(first?.summary ?? "")
        throw ExitCode(1)
    }

    struct Result {
        var matches: Bool
        var summary: String
    }

    /// Both lists from the first stroke either begins (or the first frame), rebased, line by line.
    /// `learnedBefore`: the tools may have drawn before the window, so the predictions' fields the
    /// engine learns from earlier strokes may differ (counted apart); without, nothing may.
    static func compare(recorded: [String], replayed: [String], learnedBefore: Bool, deviceIDs: [Int] = []) -> Result {
        // Strokes that began before the window cannot be replayed: start at the first line that
        // is not part of one (a frame of no stroke, or a `began`), in both.
        let recordedStart = recorded.firstIndex(where: startsFresh) ?? recorded.count
        let replayedStart = replayed.firstIndex(where: startsFresh) ?? replayed.count
        let a = Array(recorded[recordedStart...]), b = Array(replayed[replayedStart...])
        let strokeOffset = (firstNumber(a, after: #""type":"began","stroke":"#) ?? 0) - (firstNumber(b, after: #""type":"began","stroke":"#) ?? 0)
        let seqOffset = (firstNumber(a, after: #""type":"stroke","seq":"#) ?? 0) - (firstNumber(b, after: #""type":"stroke","seq":"#) ?? 0)
        let updateOffset = firstPairedNumber(a, b, after: Self.updateIndexKey)
        let offsets = Offsets(stroke: strokeOffset, seq: seqOffset, updateIndex: updateOffset, devices: deviceIDs)
        var equal = 0, lastBit = 0, learned = 0
        for (index, (live, again)) in zip(a, b).enumerated() {
            let rebased = rebase(again, offsets)
            if live == rebased {
                equal += 1
                continue
            }
            let fields = differingFields(live, rebased, tolerance: Self.lastBits)
            if fields.isEmpty {
                lastBit += 1
                continue
            }
            if learnedBefore, fields.allSatisfy(Self.isLearned) {
                learned += 1
                continue
            }
            let all = differingFields(live, rebased)
            // The decoder's pressure offset (libinput's rule for worn pen springs) is learned from
            // a tool's earlier proximities and kept; the report does not carry it.
            let offsetHint = learnedBefore && all.contains("sample.force")
                ? "\n  (a pressure offset penkitd learned for this tool before the window would make the force differ: the report does not carry it)"
                : ""
            return Result(matches: false, summary: """
                the replay differs from what penkitd sent at message \(index + 1) of \(a.count) (\(equal + lastBit + learned) equal before it):
                  penkitd: \(live.prefix(400))
                  replay:  \(rebased.prefix(400))
                  fields that differ: \(all.joined(separator: ", "))
                """ + offsetHint)
        }
        guard a.count == b.count else {
            return Result(matches: false, summary: "the first \(equal + lastBit + learned) messages are equal, but penkitd sent \(a.count) and the replay makes \(b.count)")
        }
        var parts = ["\(equal) byte for byte"]
        if lastBit > 0 { parts.append("\(lastBit) with numbers equal to within \(Self.lastBits) (relative: the smoothing history sums in another order when the window starts after earlier proximities)") }
        if learned > 0 { parts.append("\(learned) alike but for the prediction (learned from the tool's strokes before the window, which penkit record does not carry)") }
        let bits = equal == a.count ? "all byte for byte" : parts.joined(separator: ", ")
        return Result(matches: !a.isEmpty, summary: a.isEmpty
            ? "nothing to compare: the report holds no engine messages after its first proximity-in"
            : "the replay reproduces the \(a.count) engine messages penkitd sent from the window's first proximity-in: \(bits) (stroke ids rebased by \(strokeOffset), seq by \(seqOffset), update indexes by \(updateOffset))")
    }

    /// Each device's events from `start` on, decoded and merged by time (as `decodeForEngine`),
    /// each device's decoder knowing its `knownTools` (by the replay's device number, from 1).
    static func decode(_ trace: Trace, from start: UInt64, options: DecoderOptions,
                       knownTools: [UInt32: [ToolIdentity]] = [:]) throws -> [EngineReplay.Input] {
        var inputs: [(order: Int, input: EngineReplay.Input)] = []
        for (index, device) in trace.devices.enumerated() {
            var options = options
            options.knownTools = knownTools[UInt32(index + 1)] ?? []
            let events = try TabletDecoder.decode(device.events.filter { $0.time >= start }, device: device.description, options: options)
            for event in events { inputs.append((inputs.count, EngineReplay.Input(device: UInt32(index + 1), event: event))) }
        }
        inputs.sort { ($0.input.event.time, $0.order) < ($1.input.event.time, $1.order) }
        return inputs.map(\.input)
    }

    static func startsFresh(_ line: String) -> Bool {
        line.hasPrefix(#"{"type":"began""#) || (line.hasPrefix(#"{"type":"frame""#) && !line.contains(#""stroke":"#))
    }

    /// The number after the first occurrence of `prefix` in any of `lines`.
    static func firstNumber(_ lines: [String], after prefix: String) -> Int? {
        for line in lines {
            guard let range = line.range(of: prefix) else { continue }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }

    static let updateIndexKey = #""updateIndex":"#

    /// penkitd's number after `key` less the replay's, in the first pair of lines at the same
    /// place that both carry it (0 when none does). Paired, not each list's first: the first
    /// line of one list to carry it may be one the other list has at another place, and the
    /// line-by-line comparison then names that place.
    static func firstPairedNumber(_ recorded: [String], _ replayed: [String], after key: String) -> Int {
        for (live, again) in zip(recorded, replayed) {
            if let x = firstNumber([live], after: key), let y = firstNumber([again], after: key) { return x - y }
        }
        return 0
    }

    /// How the replay's numbers map to penkitd's: the engine-wide counters by an offset each,
    /// the replay's device numbers (1, 2, …) to penkitd's ids.
    struct Offsets {
        var stroke = 0
        var seq = 0
        var updateIndex = 0
        var devices: [Int] = []
    }

    /// Stroke ids (`"stroke":N`, `"stroke":{"id":N`), `"seq":N` and `"updateIndex":N` moved by
    /// the offsets, and the replay's device numbers made penkitd's ids.
    static func rebase(_ line: String, _ offsets: Offsets) -> String {
        var out = shift(line, key: #""stroke":{"id":"#) { $0 + offsets.stroke }
        out = shift(out, key: #""stroke":"#) { $0 + offsets.stroke }
        out = shift(out, key: #""seq":"#) { $0 + offsets.seq }
        out = shift(out, key: updateIndexKey) { $0 + offsets.updateIndex }
        let devices = offsets.devices
        return shift(out, key: #""device":"#) { n in n >= 1 && n <= devices.count ? devices[n - 1] : n }
    }

    private static func shift(_ line: String, key: String, _ map: (Int) -> Int) -> String {
        var result = ""
        var rest = Substring(line)
        while let range = rest.range(of: key) {
            result += rest[..<range.upperBound]
            let digits = rest[range.upperBound...].prefix { $0.isNumber }
            if let n = Int(digits) { result += String(map(n)) } else { result += digits }
            rest = rest[range.upperBound...].dropFirst(digits.count)
        }
        return result + rest
    }

    /// `"delivered":{…}` (flat) taken out: the virtual tablet's, which a replay has none of.
    static func withoutDelivered(_ line: String) -> String {
        guard let start = line.range(of: #","delivered":{"#) else { return line }
        guard let end = line[start.upperBound...].firstIndex(of: "}") else { return line }
        return String(line[..<start.lowerBound] + line[line.index(after: end)...])
    }

    static func type(_ line: String) -> String? {
        guard line.hasPrefix(#"{"type":""#) else { return nil }
        return String(line.dropFirst(9).prefix { $0 != "\"" })
    }

    /// A message's time: its sample's `t`, or its own.
    static func time(_ line: String) -> UInt64? {
        guard let range = line.range(of: #""t":"#) else { return nil }
        return UInt64(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// The fields the engine's prediction learns from a tool's earlier strokes (its calibration).
    static func isLearned(_ path: String) -> Bool {
        path == "expectedError" || path == "liftProbability" || path.hasPrefix("predicted[")
    }

    /// How far (relative) two numbers may differ and still be the same: a few ulps of a double.
    static let lastBits = 1e-12

    /// The paths where two messages differ: keys, strings and array lengths exactly, numbers
    /// beyond `tolerance` (relative; 0: any difference).
    static func differingFields(_ a: String, _ b: String, tolerance: Double = 0) -> [String] {
        guard let x = try? JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any],
              let y = try? JSONSerialization.jsonObject(with: Data(b.utf8)) as? [String: Any] else { return ["(not JSON)"] }
        var fields: [String] = []
        func walk(_ x: Any?, _ y: Any?, _ path: String) {
            if let dx = x as? [String: Any], let dy = y as? [String: Any] {
                for key in Set(dx.keys).union(dy.keys).sorted() { walk(dx[key], dy[key], path.isEmpty ? key : path + "." + key) }
            } else if let ax = x as? [Any], let ay = y as? [Any], ax.count == ay.count {
                for (i, (u, v)) in zip(ax, ay).enumerated() { walk(u, v, "\(path)[\(i)]") }
            } else if let nx = x as? NSNumber, let ny = y as? NSNumber, !(x is Bool), !(y is Bool) {
                let u = nx.doubleValue, v = ny.doubleValue
                if abs(u - v) > tolerance * max(1, abs(u), abs(v)) { fields.append(path) }
            } else if "\(String(describing: x))" != "\(String(describing: y))" {
                fields.append(path)
            }
        }
        walk(x, y, "")
        return Array(fields.prefix(12))
    }

    /// The report's `penkit:` part: penkitd's settings and the messages it sent.
    static func load(_ path: String) throws -> Report {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RuntimeFailure("\(path): cannot read: \(error.localizedDescription)")
        }
        guard let start = text.range(of: "\npenkit:\n") else {
            throw RuntimeFailure("\(path): no `penkit:` part: --check needs a report written by `penkit record`")
        }
        let part: Any?
        do {
            part = try Yams.load(yaml: String(text[text.index(after: start.lowerBound)...]))
        } catch {
            throw RuntimeFailure("\(path): the `penkit:` part is not valid YAML: \(error)")
        }
        guard let root = part as? [String: Any], let penkit = root["penkit"] as? [String: Any] else {
            throw RuntimeFailure("\(path): the `penkit:` part is not a mapping")
        }
        let settings = (penkit["settings"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
        var messages: [String] = []
        for item in penkit["messages"] as? [Any] ?? [] {
            if let line = item as? String { messages.append(line) } else if let parts = item as? [String] { messages.append(parts.joined()) }
        }
        return Report(settings: settings, messages: messages, fromStart: penkit["fromStart"] as? Bool ?? false,
                      deviceIDs: penkit["deviceIDs"] as? [Int] ?? [])
    }
}
