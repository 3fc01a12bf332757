import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit

/// The strokes of a trace as predictors see them and as they are judged: the input decoded as
/// libinput would report it (smoothed unless asked not to), and the real pen from the raw
/// decode of the same events, split at every contact change and proximity change.
struct PredictionStrokes {
    var contact: [BenchStroke] = []
    var hover: [BenchStroke] = []
}

/// `pen` tells recordings apart: each is a pen of its own, learned about separately.
func loadPredictionStrokes(path: String, smoothing: Bool, minFrames: Int, pen: Int = 0) throws -> PredictionStrokes {
    let trace = try TraceFile.load(path: path, readers: .all)
    let input = try decodeForPrediction(trace, options: DecoderOptions(smoothing: smoothing))
    let raw = smoothing ? try decodeForPrediction(trace, options: DecoderOptions(smoothing: false)) : input
    let received = splitIntoRuns(input)
    let real = splitIntoRuns(raw)
    // Smoothing changes positions, never which events exist: the runs pair up one to one.
    guard received.count == real.count else { throw PredictionStrokesError.unpaired(path) }
    var result = PredictionStrokes()
    for (run, truth) in zip(received, real) {
        guard run.samples.first?.time == truth.samples.first?.time else { throw PredictionStrokesError.unpaired(path) }
        guard run.samples.count >= max(minFrames, 2) else { continue }
        let stroke = BenchStroke(leadIn: run.leadIn, input: Trajectory(run.samples), truth: Trajectory(truth.samples), pen: pen)
        if run.samples[0].touching { result.contact.append(stroke) } else { result.hover.append(stroke) }
    }
    return result
}

enum PredictionStrokesError: Error, CustomStringConvertible {
    case unpaired(String)
    var description: String {
        switch self {
        case .unpaired(let path): "\(path): the smoothed and raw decodes do not pair up stroke for stroke"
        }
    }
}

private func decodeForPrediction(_ trace: Trace, options: DecoderOptions) throws -> [TabletEvent] {
    var events: [TabletEvent] = []
    var decoded = 0
    var firstError: Error?
    for device in trace.devices {
        do {
            events += try TabletDecoder.decode(device.events, device: device.description, options: options)
            decoded += 1
        } catch {
            // Devices libinput ignores (pads, tablets without resolution) hold no strokes.
            firstError = firstError ?? error
        }
    }
    if decoded == 0, let firstError { throw firstError }
    return events
}

/// A contact stroke or hover run, with the hover run just before it in the same proximity.
private struct Run {
    var samples: [PredictionSample]
    var leadIn: [PredictionSample]
}

/// Cuts tablet events into contact strokes and hover runs (every run, short ones too, so that
/// two decodes of one trace pair up; the caller drops the short ones).
private func splitIntoRuns(_ events: [TabletEvent]) -> [Run] {
    var runs: [Run] = []
    var current: [PredictionSample] = []
    var previousHover: [PredictionSample] = []
    var currentTool: ToolIdentity?
    func close(proximityEnds: Bool) {
        guard !current.isEmpty else { return }
        var leadIn: [PredictionSample] = []
        // The whole hover run since libinput last restarted its smoothing (proximity in or a
        // lift), so that the stage's view of libinput's history matches libinput's.
        if current[0].touching { leadIn = previousHover }
        runs.append(Run(samples: current, leadIn: leadIn))
        previousHover = current[0].touching || proximityEnds ? [] : current
        current.removeAll(keepingCapacity: true)
    }
    for event in events where event.kind != .button {
        if event.kind == .proximity && event.state == .proximityOut {
            close(proximityEnds: true)
            previousHover = []
            currentTool = nil
            continue
        }
        let sample = PredictionSample(time: event.time, x: event.axes.x, y: event.axes.y,
                                      pressure: event.axes.pressure, tiltX: event.axes.tiltX,
                                      tiltY: event.axes.tiltY, touching: event.tipDown)
        if let first = current.first, first.touching != sample.touching || currentTool != event.tool {
            if currentTool != event.tool { previousHover = [] }
            close(proximityEnds: currentTool != event.tool)
        }
        currentTool = event.tool
        current.append(sample)
    }
    close(proximityEnds: true)
    return runs
}
