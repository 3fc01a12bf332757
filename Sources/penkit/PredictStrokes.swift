import PenEngine
import PenInput
import PenKit

/// The strokes of a trace as predictors see them: decoded exactly as libinput would report
/// them (smoothed unless asked not to), split at every contact change and proximity change.
struct PredictionStrokes {
    var contact: [Trajectory] = []
    var hover: [Trajectory] = []
}

func loadPredictionStrokes(path: String, options: DecoderOptions, minFrames: Int) throws -> PredictionStrokes {
    let trace = try TraceFile.load(path: path)
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
    return splitIntoStrokes(events, minFrames: minFrames)
}

/// Cuts tablet events into contact strokes and hover runs of at least `minFrames` samples.
func splitIntoStrokes(_ events: [TabletEvent], minFrames: Int) -> PredictionStrokes {
    var result = PredictionStrokes()
    var current: [PredictionSample] = []
    var currentTool: ToolIdentity?
    func close() {
        if current.count >= max(minFrames, 2) {
            let trajectory = Trajectory(current)
            if current[0].touching { result.contact.append(trajectory) } else { result.hover.append(trajectory) }
        }
        current.removeAll(keepingCapacity: true)
    }
    for event in events where event.kind != .button {
        if event.kind == .proximity && event.state == .proximityOut {
            close()
            currentTool = nil
            continue
        }
        let sample = PredictionSample(time: event.time, x: event.axes.x, y: event.axes.y,
                                      pressure: event.axes.pressure, tiltX: event.axes.tiltX,
                                      tiltY: event.axes.tiltY, touching: event.tipDown)
        if let first = current.first, first.touching != sample.touching || currentTool != event.tool { close() }
        currentTool = event.tool
        current.append(sample)
    }
    close()
    return result
}
