import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit

/// `penkit replay TRACE [--json] [--late-pressure MS[±JITTER]]`: the trace through
/// the decoder and the stroke engine, printing what a socket client receives
/// (docs/protocol.md), or a line per stroke without --json.
func replayMessages(_ command: ReplayCommand) async throws {
    let late = try parseLatePressure(command.latePressure)
    let inputs = try decodeForEngine(command.trace, options: command.decoderOptions, speed: command.speed)
    let replay = EngineReplay(latePressure: late, prediction: EnginePrediction.penkit(smoothed: command.decoding.smoothing))
    var out = ""
    out.reserveCapacity(1 << 17)
    var summary = ReplaySummary()
    replay.run(inputs) { message in
        if command.json {
            out += message.jsonLine()
            out += "\n"
        } else if let line = summary.line(for: message) {
            out += line
            out += "\n"
        }
        if out.utf8.count > 1 << 16 {
            FileHandle.standardOutput.write(Data(out.utf8))
            out.removeAll(keepingCapacity: true)
        }
    }
    if !command.json { out += summary.totals + "\n" }
    FileHandle.standardOutput.write(Data(out.utf8))
}

/// The `--late-pressure MS[±JITTER]` option of `replay` and `view`.
func parseLatePressure(_ text: String?) throws -> LatePressure? {
    guard let text else { return nil }
    guard let parsed = LatePressure(parsing: text) else {
        throw ValidationError("--late-pressure expects MS or MS±JITTER in milliseconds (e.g. 20±10), got \(text)")
    }
    return parsed
}

/// Every usable device of a trace, decoded and merged by time (stable: events
/// of one device that share a timestamp keep their order). Devices libinput
/// would ignore are named on stderr; none usable is an error.
func decodeForEngine(_ path: String, options: DecoderOptions, speed: Double = 1) throws -> [EngineReplay.Input] {
    let trace = try TraceFile.load(path: path, readers: .all).played(atSpeed: speed)
    var inputs: [(order: Int, input: EngineReplay.Input)] = []
    var usable = 0
    for (index, device) in trace.devices.enumerated() {
        do {
            let events = try TabletDecoder.decode(device.events, device: device.description, options: options)
            usable += 1
            for event in events {
                // Numbered from 1, as penkitd numbers a replay's devices in `hello`.
                inputs.append((inputs.count, EngineReplay.Input(device: UInt32(index + 1), event: event)))
            }
        } catch let error as DecoderError {
            FileHandle.standardError.write(Data("penkit: \(path): device \(index) \"\(device.description.name)\" ignored: \(error)\n".utf8))
        }
    }
    guard usable > 0 else { throw RuntimeFailure("\(path): no device libinput would use as a tablet") }
    inputs.sort { ($0.input.event.time, $0.order) < ($1.input.event.time, $1.order) }
    return inputs.map(\.input)
}

/// The human-readable form: one line per finalized stroke, totals at the end.
struct ReplaySummary {
    var frames = 0
    var updates = 0
    var strokes = 0
    var cancelled = 0

    mutating func line(for message: EngineMessage) -> String? {
        switch message {
        case .frame: frames += 1
        case .update: updates += 1
        case .began, .ended: break
        case .stroke(let m):
            strokes += 1
            let s = m.stroke
            if s.cancelled { cancelled += 1 }
            let duration = Double((s.points.last?.time ?? 0) - s.creationTime) / 1000
            let estimated = s.points.reduce(SampleProperties()) { $0.union($1.estimated) }
            let names = SampleProperties.jsonNames.filter { estimated.contains($0.0) }.map(\.1)
            return "stroke \(m.seq): \(s.tool.type.rawValue) \(s.ink.type.rawValue), \(s.points.count) points, "
                + "\(format(s.path.length)) mm, \(format(duration)) ms"
                + (s.cancelled ? ", cancelled" : "")
                + (names.isEmpty ? "" : ", estimated: \(names.joined(separator: ","))")
        }
        return nil
    }

    var totals: String {
        "\(strokes) strokes (\(cancelled) cancelled), \(frames) frames, \(updates) updates"
    }

    private func format(_ x: Double) -> String { String(format: "%.1f", x) }
}
