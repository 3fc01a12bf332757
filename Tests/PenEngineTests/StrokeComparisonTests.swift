import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// `penkit compare`'s comparator (make e2e), on strokes from real traces: the replay's own
/// messages must compare equal to themselves, and a single sample moved past the tolerance
/// must not. Counts come from the replay's messages, never from the comparator.
@Suite struct StrokeComparisonTests {
    /// The replay's messages as the JSON lines a client receives.
    static func replayLines(_ trace: String) throws -> [String] {
        var lines: [String] = []
        EngineReplay(prediction: EnginePrediction.penkit()).run(try Traces.inputs(trace)) { lines.append($0.jsonLine()) }
        return lines
    }

    static func strokes(_ trace: String) throws -> [Stroke] {
        StrokeComparison.strokes(inLines: try replayLines(trace))
    }

    @Test(arguments: ["wacom-intuos4-6x9-stylus-tap.evemu", "wacom-intuos4-6x9-stylus-drag.evemu",
                      "wacom-cintiq-22hdt-pen.evemu", "wacom-dth2242-pen.evemu"])
    func replayEqualsItself(trace: String) throws {
        let lines = try Self.replayLines(trace)
        var strokeLines = 0, samples = 0
        EngineReplay(prediction: EnginePrediction.penkit()).run(try Traces.inputs(trace)) { message in
            if case .stroke(let f) = message { strokeLines += 1; samples += f.stroke.points.count }
        }
        let strokes = StrokeComparison.strokes(inLines: lines)
        #expect(strokes.count == lines.filter { $0.hasPrefix("{\"type\":\"stroke\"") }.count)
        let result = StrokeComparison(actual: strokes, expected: strokes, timeTolerance: 0)
        #expect(result.passed, "\(result.differences)")
        #expect(result.strokesCompared == strokeLines)
        #expect(result.samplesCompared == samples)
        #expect(strokeLines > 0)
        for quantity in StrokeComparison.Quantity.allCases { #expect(result.largest[quantity] == 0) }
    }

    /// A stroke in the middle of the Cintiq trace, a sample in the middle of it.
    static func pick(_ strokes: [Stroke]) -> (stroke: Int, sample: Int) {
        let s = strokes.indices.first { strokes[$0].points.count >= 10 && $0 >= strokes.count / 2 }!
        return (s, strokes[s].points.count / 2)
    }

    @Test func positionMovedPastToleranceDiffers() throws {
        let expected = try Self.strokes("wacom-cintiq-22hdt-pen.evemu")
        let (s, i) = Self.pick(expected)
        var actual = expected
        actual[s].points[i].x += 0.02
        let result = StrokeComparison(actual: actual, expected: expected)
        #expect(!result.passed)
        #expect(result.differences.count == 1)
        #expect(result.differences.first?.hasPrefix("stroke \(s + 1) sample \(i + 1): position") == true)
        #expect(abs(result.largest[.position]! - 0.02) < 1e-9)
        #expect(result.strokesCompared == expected.count)
    }

    @Test func positionMovedWithinToleranceIsTheSame() throws {
        let expected = try Self.strokes("wacom-cintiq-22hdt-pen.evemu")
        let (s, i) = Self.pick(expected)
        var actual = expected
        actual[s].points[i].y -= 0.005
        let result = StrokeComparison(actual: actual, expected: expected)
        #expect(result.passed)
        #expect(abs(result.largest[.position]! - 0.005) < 1e-9)
    }

    @Test func forceTiltAndTimeAreCompared() throws {
        let expected = try Self.strokes("wacom-cintiq-22hdt-pen.evemu")
        let (s, i) = Self.pick(expected)
        var force = expected
        force[s].points[i].force += 0.02
        #expect(!StrokeComparison(actual: force, expected: expected).passed)
        // 0.001 rad of altitude is 0.057° of tilt on a pen tilted in both axes or more
        var tilt = expected
        tilt[s].points[i].altitude -= 0.001
        let tiltResult = StrokeComparison(actual: tilt, expected: expected)
        #expect(!tiltResult.passed)
        #expect(tiltResult.largest[.tilt]! > 0.01)
        var time = expected
        time[s].points[i].time += 5
        #expect(StrokeComparison(actual: time, expected: expected).passed)  // times not checked by default
        #expect(!StrokeComparison(actual: time, expected: expected, timeTolerance: 0).passed)
    }

    @Test func countsToolAndCancellationAreCompared() throws {
        let expected = try Self.strokes("wacom-cintiq-22hdt-pen.evemu")
        let (s, i) = Self.pick(expected)
        var cancelled = expected
        cancelled[s].cancelled.toggle()
        #expect(StrokeComparison(actual: cancelled, expected: expected).differences == ["stroke \(s + 1): cancelled \(!expected[s].cancelled), expected \(expected[s].cancelled)"])
        var tool = expected
        tool[s].tool.type = tool[s].tool.type == .pen ? .eraser : .pen
        #expect(!StrokeComparison(actual: tool, expected: expected).passed)
        var shorter = expected
        shorter[s].points.remove(at: i)
        #expect(!StrokeComparison(actual: shorter, expected: expected).passed)
        let fewer = Array(expected.dropLast())
        let result = StrokeComparison(actual: fewer, expected: expected)
        #expect(!result.passed)
        #expect(result.differences.first == "\(expected.count - 1) strokes, expected \(expected.count)")
    }
}

/// What penkitd really sent in the VM (make e2e, Tests/Fixtures/e2e: the finalized strokes a
/// client received while each trace played through uinput, the kernel and libinput 1.22 with
/// Debian's default quirks) equals the decoder's replay of the trace.
@Suite struct LiveStrokeFixtureTests {
    @Test(arguments: ["wacom-intuos4-6x9-stylus-tap", "wacom-intuos4-6x9-stylus-drag",
                      "wacom-cintiq-22hdt-pen", "wacom-dth2242-pen"])
    func penkitdInTheVMEqualsTheDecoder(name: String) throws {
        let fixture = Traces.repoRoot.appendingPathComponent("Tests/Fixtures/e2e/\(name).strokes.jsonl").path
        let live = StrokeComparison.strokes(inLines: try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n"))
        // the quirks the VM's libinput had: Debian's, without this host's local overrides
        let options = DecoderOptions(quirksPaths: Quirks.defaultPaths.filter { !$0.hasPrefix("/etc") })
        let trace = try TraceFile.load(path: Traces.path("\(name).evemu"))
        var inputs: [EngineReplay.Input] = []
        for (index, device) in trace.devices.enumerated() {
            guard let events = try? TabletDecoder.decode(device.events, device: device.description, options: options) else { continue }
            inputs += events.map { EngineReplay.Input(device: UInt32(index), event: $0) }
        }
        var replayed: [Stroke] = []
        EngineReplay(prediction: EnginePrediction.penkit()).run(inputs) { if case .stroke(let f) = $0 { replayed.append(f.stroke) } }
        let result = StrokeComparison(actual: live, expected: replayed)
        #expect(result.passed, "\(result.differences.prefix(5))")
        #expect(result.strokesCompared == replayed.count)
        #expect(result.samplesCompared == replayed.reduce(0) { $0 + $1.points.count })
        #expect(!replayed.isEmpty)
    }
}
