import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// The repository's traces as `penkit replay --json` prints them: every usable device decoded
/// (numbered from 1, as penkitd does), merged by time, through the engine with penkit's predictor.
enum TraceMessages {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The traces with a pen (the pad-only recordings have no frames).
    static var penTraces: [String] {
        let dir = repoRoot.appendingPathComponent("traces").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".evemu") && !$0.contains("pad") }.sorted()
    }

    /// `latePressure`: as `penkit replay --late-pressure MS` (pressure from a second source, late).
    static func messages(_ name: String, latePressure: LatePressure? = nil) throws -> [EngineMessage] {
        let trace = try TraceFile.load(path: repoRoot.appendingPathComponent("traces/\(name)").path)
        var inputs: [(Int, EngineReplay.Input)] = []
        for (index, device) in trace.devices.enumerated() {
            guard let events = try? TabletDecoder.decode(device.events, device: device.description) else { continue }
            for e in events { inputs.append((inputs.count, EngineReplay.Input(device: UInt32(index + 1), event: e))) }
        }
        inputs.sort { ($0.1.event.time, $0.0) < ($1.1.event.time, $1.0) }
        return EngineReplay(latePressure: latePressure, prediction: EnginePrediction.penkit(smoothed: true)).messages(inputs.map(\.1))
    }

    static var vectorsPath: String {
        repoRoot.appendingPathComponent("Tests/Fixtures/surface-pairing/vectors.json").path
    }
}
