import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit
import PenView

/// A page's view of a trace: the messages `penkit replay --json` prints, decoded once, sent to
/// each page from the start, at the recorded pace with `realtime` or all at once without.
struct ReplayViewFeed: ViewFeed {
    struct TimedLine: Sendable {
        /// When the engine published it: the time of the input that caused it (µs, trace clock).
        var time: UInt64
        var text: String
    }

    let intro: String
    let lines: [TimedLine]
    let realtime: Bool
    let summary: String

    /// Decodes as `penkit replay TRACE --json` does, with the same predictor.
    init(trace: String, realtime: Bool, smoothing: Bool, latePressure: LatePressure?) throws {
        let loaded = try TraceFile.load(path: trace, readers: .all)
        let inputs = try decodeForEngine(trace, options: DecoderOptions(smoothing: smoothing ? nil : false))
        var lines: [TimedLine] = []
        var clock: UInt64 = 0
        var strokes = 0
        var drawing = ViewDrawing()
        let prediction = EnginePrediction.penkit(smoothed: smoothing)
        EngineReplay(latePressure: latePressure, prediction: prediction).run(inputs) { message in
            // Updates and finalized strokes carry no publication time: they go with the input before them.
            switch message {
            case .frame(let frame): clock = max(clock, frame.sample.time)
            case .began(let began): clock = max(clock, began.time)
            case .ended(let ended): clock = max(clock, ended.time)
            case .stroke: strokes += 1
            case .update: break
            }
            lines.append(TimedLine(time: clock, text: message.jsonLine()))
            if case .stroke(let finalized) = message, let line = drawing.add(finalized.stroke) {
                lines.append(TimedLine(time: clock, text: line))
            }
        }
        let device = loaded.devices.first?.description
        self.intro = ViewIntro(mode: "replay", source: trace, device: device?.name,
                               area: device.flatMap(Self.sensorSize)).jsonLine()
        self.lines = lines
        self.realtime = realtime
        self.summary = "replay of \(trace) finished: \(strokes) finalized strokes"
    }

    /// The sensor's width and height in mm, as libinput reports positions: (max − min) / resolution.
    static func sensorSize(_ device: DeviceDescription) -> (width: Double, height: Double)? {
        guard let x = device.absInfo[0], let y = device.absInfo[1], x.resolution > 0, y.resolution > 0 else { return nil }
        return (Double(x.maximum - x.minimum) / Double(x.resolution), Double(y.maximum - y.minimum) / Double(y.resolution))
    }

    func run(into page: ViewPage) async throws {
        try await page.send(intro)
        if realtime, let first = lines.first?.time {
            try await paced(from: first, into: page)
        } else {
            // All at once, in messages of about 64 KiB.
            var batch = ""
            for line in lines {
                batch += line.text + "\n"
                if batch.utf8.count >= 1 << 16 {
                    try await page.send(batch)
                    batch = ""
                }
            }
            if !batch.isEmpty { try await page.send(batch) }
        }
        try await page.send(ViewEnd(message: summary).jsonLine())
    }

    /// Each message at its recorded offset from the first; all that are due go together, after a
    /// clock line saying where in the trace the replay is now.
    private func paced(from first: UInt64, into page: ViewPage) async throws {
        let start = ContinuousClock.now
        var next = 0
        while next < lines.count {
            let offset = Duration.microseconds(Int64(lines[next].time - first))
            try await Task.sleep(until: start + offset, clock: .continuous)
            let now = first + (ContinuousClock.now - start).wholeMicroseconds
            var batch = ViewClock(time: now).jsonLine()
            while next < lines.count, lines[next].time <= now {
                batch += "\n" + lines[next].text
                next += 1
            }
            try await page.send(batch)
        }
    }
}
