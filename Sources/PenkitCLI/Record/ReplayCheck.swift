import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit
import Yams

/// `penkit replay REPORT --check`: replays a `penkit record` report through the decoder and the
/// engine, as `--json` does, and compares a digest of each engine message it makes (frame, began,
/// update, ended, stroke; `LineDigest`) with the digest penkitd's flight recorder kept of the
/// line it sent, in the recorded window. The report holds digests, not lines: the check names the
/// first line that differs by its place, both digests and the line the replay made. Before the
/// digests are compared:
///
/// - stroke ids, stroke `seq`, `updateIndex` and device ids, which count from where penkitd was
///   (each one counter for the whole engine, running before the window began), are rebased: the
///   recorder keeps the number each line carries, and the replay's first stroke, first stroke
///   line and first sample that expected an update are moved onto penkitd's;
/// - a frame's `delivered` (the virtual tablet's positions) is left out of both digests: a
///   replay has no virtual tablet;
/// - when the window starts after penkitd opened the tablet: a frame's prediction (`predicted`,
///   `expectedError`, `liftProbability`), which the engine calibrates on the tool's earlier
///   strokes, before the window, is left out of the second digest; frames equal but for it are
///   counted apart;
/// - what came before the window's first proximity-in (the replay cannot know what the pen was
///   doing before the window: its tool, its smoothing history), unless the window reaches back to
///   when penkitd opened the tablet; for a pen that names itself (ABS_MISC, MSC_SERIAL anywhere in
///   the window), the first proximity-in that carries those names.
///
/// What penkitd knew where the replay starts, which the report's header says: the tools libinput
/// had met, in the order it met them (a pen with a serial keeps the id of its first proximity),
/// and the tools the engine knew to send no tilt; the replay starts knowing them.
///
/// What it cannot know, and so tries each way and says which held: whether libinput had seen
/// the tablet release the pen by itself, and where the smoothing's history ring stood (libinput
/// sums it from its first slot, so a tilt's last bits depend on the samples before the window). What it cannot know at all: the decoder's pressure
/// offset for a pen that presses while hovering high (libinput's rule for worn springs), learned
/// at the tool's earlier proximities.
///
/// The replay decodes as penkitd did: with libinput's smoothing unless the report's settings say
/// penkitd read the tablet raw. Other settings (pressure curve, area, inks) are penkit's defaults:
/// a report from a penkitd configured otherwise differs, and the first difference says where.
enum ReplayCheck {
    static let engineTypes: Set<String> = ["frame", "began", "update", "ended", "stroke"]

    typealias RecordedLine = Recording.RecordedLine

    struct Report {
        var settings: [String: String]
        var lines: [RecordedLine]
        /// The window reaches back to when penkitd opened every tablet: nothing was learned before it.
        var fromStart: Bool
        /// penkitd's id of each device of the report, in the report's order (a replay numbers them from 1).
        var deviceIDs: [Int]
        /// What penkitd knew of each device's tools, and when, by penkitd's id.
        var tools: [Int: RecordedTools] = [:]
    }

    static func run(_ command: ReplayCommand) throws {
        // The trace first: it refuses what is no file (a FIFO nobody writes to) at once, by name.
        let trace = try TraceFile.load(path: command.trace, readers: .all)
        let report = try load(command.trace)
        let smoothing = report.settings["smoothing"] != "false"
        // A window from the start holds everything penkitd's decoder saw; otherwise the pen is
        // known from its first proximity-in that names it as the pen names itself.
        let start = report.fromStart ? 0 : Self.firstKnownProximity(trace) ?? .max
        let recorded = report.lines.filter { $0.time >= start }
        // What penkitd knew where the replay starts, from the report's header: the tools libinput
        // had met (a pen with a serial keeps the id of its first proximity, which picks its axes)
        // and the tools the engine had learned to send no tilt (after a whole tilt timeout
        // without it). A window from the start knew nothing before it.
        let knownTools = report.fromStart ? [:] : Self.knownTools(report, before: start)
        let withoutTilt = report.fromStart ? [] : Self.toolsWithoutTilt(report, before: start)
        var first: Result?
        // libinput learns once per device whether the pen releases BTN_TOOL_PEN itself (until
        // then it forces a proximity-out after 50 ms without events): the check tries both.
        let states = report.fromStart ? [false] : [false, true]
        for learnedProximityOut in states {
            let options = DecoderOptions(smoothing: smoothing ? nil : false, sendsOwnProximityOut: learnedProximityOut)
            let inputs = try Self.decode(trace, from: start, options: options, knownTools: knownTools,
                                         proximityOuts: Self.proximityOuts(report))
            let replayed = Self.replay(inputs, start: start, smoothing: smoothing, withoutTilt: withoutTilt)
            var result = compare(recorded: recorded, replayed: replayed, learnedBefore: !report.fromStart, deviceIDs: report.deviceIDs)
            guard result.matches else {
                // The way that went furthest names the line that differs: the others differ
                // earlier by what they tried.
                if result.equalBefore > first?.equalBefore ?? -1 { first = result }
                continue
            }
            if !withoutTilt.isEmpty {
                result.summary += "; \(withoutTilt.count) tool(s) replayed as penkitd knew them before the window: sending no tilt"
            }
            let toolsKnown = knownTools.values.reduce(0) { $0 + $1.count }
            if toolsKnown > 0 {
                result.summary += "; decoded knowing the \(toolsKnown) tool(s) libinput had met before the window, as it met them"
            }
            if learnedProximityOut {
                result.summary += "; decoded as a device that penkitd had already seen release the pen by itself, before the window"
            }
            print(result.summary)
            return
        }
        print(first?.summary ?? "")
        throw ExitCode(1)
    }

    /// The engine messages a replay of `inputs` makes from `start` on, as penkitd writes them.
    static func replay(_ inputs: [EngineReplay.Input], start: UInt64, smoothing: Bool, withoutTilt: Set<ToolKey>) -> [String] {
        var replayed: [String] = []
        var engine = EngineReplay(prediction: EnginePrediction.penkit(smoothed: smoothing))
        engine.toolsWithoutTilt = withoutTilt
        engine.run(inputs) { message in
            let line = message.jsonLine()
            if (Self.time(line) ?? 0) >= start { replayed.append(line) }
        }
        return replayed
    }

    struct Result {
        var matches: Bool
        /// Lines equal before the first that differs.
        var equalBefore = 0
        var summary: String
    }

    /// Both lists from the first stroke either begins (or the first frame of no stroke), rebased,
    /// line by line, by digest. `learnedBefore`: the tools may have drawn before the window, so a
    /// frame's prediction, which the engine learns from earlier strokes, may differ (counted
    /// apart); without, nothing may.
    static func compare(recorded: [RecordedLine], replayed: [String], learnedBefore: Bool, deviceIDs: [Int] = []) -> Result {
        // Strokes that began before the window cannot be replayed: start at the first line that
        // is not part of one (a frame of no stroke, or a `began`), in both.
        let recordedStart = recorded.firstIndex { $0.digest.kind == .began || ($0.digest.kind == .frame && !$0.digest.inStroke) }
            ?? recorded.count
        let replayedStart = replayed.firstIndex(where: startsFresh) ?? replayed.count
        let a = Array(recorded[recordedStart...]), b = Array(replayed[replayedStart...])
        func firstRecorded(_ kind: LineDigest.Kind) -> Int? { a.first { $0.digest.kind == kind }.map { Int($0.digest.number) } }
        let strokeOffset = (firstRecorded(.began) ?? 0) - (firstNumber(b, after: #""type":"began","stroke":"#) ?? 0)
        let seqOffset = (firstRecorded(.stroke) ?? 0) - (firstNumber(b, after: #""type":"stroke","seq":"#) ?? 0)
        var updateOffset = 0
        for (live, again) in zip(a, b) where live.digest.number != 0 && (live.digest.kind == .frame || live.digest.kind == .update) {
            if let y = firstNumber([again], after: Self.updateIndexKey) {
                updateOffset = Int(live.digest.number) - y
                break
            }
        }
        let offsets = Offsets(stroke: strokeOffset, seq: seqOffset, updateIndex: updateOffset, devices: deviceIDs)
        var equal = 0, learned = 0
        for (index, (live, again)) in zip(a, b).enumerated() {
            let rebased = rebase(again, offsets)
            let made = LineDigest.of(rebased)
            if made?.full == live.digest.full {
                equal += 1
                continue
            }
            if learnedBefore, let made, made.kind == .frame, made.core == live.digest.core {
                learned += 1
                continue
            }
            let madeText = made.map { "\($0.kind.name), digest \(LineDigest.hex($0.full)) (without its prediction \(LineDigest.hex($0.core)))" }
                ?? "no engine line"
            return Result(matches: false, equalBefore: equal + learned, summary: """
                the replay differs from what penkitd sent at message \(index + 1) of \(a.count) (\(equal + learned) equal before it):
                  penkitd: \(live.digest.kind.name), digest \(LineDigest.hex(live.digest.full)) (without its prediction \(LineDigest.hex(live.digest.core)))
                  replay:  \(madeText)
                  the replay's line: \(rebased.prefix(600))
                """)
        }
        guard a.count == b.count else {
            return Result(matches: false, equalBefore: equal + learned, summary: "the first \(equal + learned) messages are equal, but penkitd sent \(a.count) and the replay makes \(b.count)")
        }
        var parts = ["\(equal) byte for byte"]
        if learned > 0 { parts.append("\(learned) alike but for the prediction (learned from the tool's strokes before the window, which penkit record does not carry)") }
        let bits = equal == a.count ? "all byte for byte" : parts.joined(separator: ", ")
        return Result(matches: !a.isEmpty, summary: a.isEmpty
            ? "nothing to compare: the report holds no engine messages after its first proximity-in"
            : "the replay reproduces the \(a.count) engine messages penkitd sent from the window's first proximity-in, by their digests: \(bits) (stroke ids rebased by \(strokeOffset), seq by \(seqOffset), update indexes by \(updateOffset))")
    }

    /// Each device's events from `start` on, decoded and merged by time (as `decodeForEngine`),
    /// each device's decoder knowing its `knownTools` (by the replay's device number, from 1).
    static func decode(_ trace: Trace, from start: UInt64, options: DecoderOptions,
                       knownTools: [UInt32: [ToolIdentity]] = [:],
                       proximityOuts: [UInt32: [LiveProximityOut]] = [:]) throws -> [EngineReplay.Input] {
        var inputs: [(order: Int, input: EngineReplay.Input)] = []
        for (index, device) in trace.devices.enumerated() {
            var options = options
            options.knownTools = knownTools[UInt32(index + 1)] ?? []
            options.libinputProximityOuts = proximityOuts[UInt32(index + 1)] ?? []
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

    static func type(_ line: String) -> String? {
        guard line.hasPrefix(#"{"type":""#) else { return nil }
        return String(line.dropFirst(9).prefix { $0 != "\"" })
    }

    /// A message's time: its sample's `t`, or its own.
    static func time(_ line: String) -> UInt64? {
        guard let range = line.range(of: #""t":"#) else { return nil }
        return UInt64(line[range.upperBound...].prefix { $0.isNumber })
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
        guard let rows = penkit["lines"] as? [Any] else {
            throw RuntimeFailure("\(path): the `penkit:` part has no `lines` (the digests of what penkitd sent): a report of an older penkit?")
        }
        var lines: [RecordedLine] = []
        for (index, row) in rows.enumerated() {
            guard let fields = row as? [Any], let line = RecordedLine(row: fields) else {
                throw RuntimeFailure("\(path): line \(index + 1) of `lines` is not [µs, type, in a stroke, digest, digest, number]: \(row)")
            }
            lines.append(line)
        }
        let tools: [Int: RecordedTools]
        do {
            tools = try RecordedTools.fromReport(penkit)
        } catch {
            throw RuntimeFailure("\(path): \(error)")
        }
        return Report(settings: settings, lines: lines, fromStart: penkit["fromStart"] as? Bool ?? false,
                      deviceIDs: penkit["deviceIDs"] as? [Int] ?? [], tools: tools)
    }
}
