import PenKit

/// Stand-in for PenEngine's StrokeEngine until the `engine` branch lands it:
/// tip down … tip up makes a stroke, finalized at tip up, as the engine's
/// `EngineMessage`s. No estimation, prediction or tilt conversion (angles are
/// marked estimated); only what the daemon needs to run end to end.
struct StrokeMessages {
    private struct Open {
        var id: UInt64
        var tool: ToolIdentity
        var samples: [StrokeSample] = []
    }

    private var open: [Int: Open] = [:]
    private var nextStrokeID: UInt64 = 1
    private var nextSeq: UInt64 = 1
    private let ink = Ink(.pen)

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout [EngineMessage]) {
        if event.kind == .tip, event.state == .down, open[device] == nil {
            open[device] = Open(id: nextStrokeID, tool: event.tool)
            out.append(.began(StrokeBegan(stroke: nextStrokeID, tool: event.tool, ink: ink, time: event.time)))
            nextStrokeID += 1
        }
        let isSample = event.kind == .tip || event.kind == .axis || (event.kind == .proximity && event.state == .proximityIn)
        if isSample {
            let sample = Sample(time: event.time, x: event.axes.x, y: event.axes.y,
                                force: event.tipDown ? event.axes.pressure : 0,
                                distance: event.tipDown ? 0 : event.axes.distance,
                                estimated: [.azimuth, .altitude])
            let inContact = event.tipDown || (event.kind == .tip && event.state == .up)
            out.append(.frame(Frame(tool: event.tool, stroke: inContact ? open[device]?.id : nil, sample: sample)))
            if inContact {
                open[device]?.samples.append(StrokeSample(
                    time: sample.time, x: sample.x, y: sample.y, force: sample.force, azimuth: 0, altitude: .pi / 2,
                    roll: 0, size: ink.width * max(sample.force, 0.1), opacity: 1, estimated: [.azimuth, .altitude]))
            }
        }
        if (event.kind == .tip && event.state == .up) || (event.kind == .proximity && event.state == .proximityOut) {
            finish(device: device, time: event.time, cancelled: event.kind == .proximity, into: &out)
        }
    }

    mutating func cancelOpen(at time: UInt64, device: Int?, into out: inout [EngineMessage]) {
        for key in open.keys.sorted() where device == nil || device == key {
            finish(device: key, time: time, cancelled: true, into: &out)
        }
    }

    private mutating func finish(device: Int, time: UInt64, cancelled: Bool, into out: inout [EngineMessage]) {
        guard let open = open.removeValue(forKey: device) else { return }
        out.append(.ended(StrokeEnded(stroke: open.id, time: time, cancelled: cancelled, pendingUpdates: 0)))
        let start = open.samples.first?.time ?? time
        let controlPoints = open.samples.map {
            StrokePoint(x: $0.x, y: $0.y, timeOffset: Double($0.time - start) / 1e6, size: $0.size, opacity: 1,
                        azimuth: 0, force: $0.force, altitude: .pi / 2)
        }
        let stroke = Stroke(id: open.id, tool: open.tool, ink: ink, cancelled: cancelled, points: open.samples,
                            path: StrokePath(controlPoints: controlPoints, creationTime: start))
        out.append(.stroke(FinalizedStroke(seq: nextSeq, stroke: stroke)))
        nextSeq += 1
    }
}
