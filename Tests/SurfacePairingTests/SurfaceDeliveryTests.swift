import PenEvaluation
import PenKit
import Testing

/// What SurfacePairing hands an app besides frames and maps when the app's own pen runs behind
/// penkit's feed: the scenarios of scripts/surface-delivery-check.mjs (penkit-surface.js) and
/// scripts/surface-delivery-check.py (the Python client), on the same real trace with pressure
/// 150 ms late (`penkit replay --late-pressure 150`). The app's events are made from the trace's
/// frames (×15 and an offset, on a clock of their own) and arrive `lag` ms after penkit's
/// messages, from report `enterAt` on. For every stroke delivered to the app: its `ended` comes
/// after every frame of it the app gets and before its `stroke`; every `update` penkit sent for
/// it reaches the app, those sent before the map was ready or before the app's pen reached the
/// stroke included; and every stroke some of whose frames reached the app gets its `stroke`.
@Suite struct SurfaceDeliveryTests {
    /// (lag ms, report the pen enters the app's surface at): 40 is the first stroke's first, so
    /// that the map is learned during that stroke, after penkit sent its `ended` and some updates.
    static let scenarios: [(Double, Int)] = [(20, 0), (300, 0), (20, 40), (160, 40)]

    @Test(arguments: scenarios)
    func endedAndUpdatesWaitForTheAppsOwnPen(lag: Double, enterAt: Int) throws {
        let late = try #require(LatePressure(parsing: "150"))
        let messages = try TraceMessages.messages("wacom-dth2242-pen.evemu", latePressure: late)
        let frames = messages.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        try #require(frames.count > enterAt)
        let clock = 5e6  // the app's clock, ms, against penkit's µs / 1000

        // Each penkit message arrives at the time of the newest frame before it; each frame's pen
        // event `lag` ms later. One ordered stream of both.
        enum Arrival { case penkit(EngineMessage), app(AppPenEvent) }
        var stream: [(at: Double, order: Int, arrival: Arrival)] = []
        var now = Double(frames[0].sample.time) / 1000
        for message in messages {
            if case .frame(let f) = message { now = Double(f.sample.time) / 1000 }
            stream.append((now, stream.count, .penkit(message)))
        }
        for (index, frame) in frames.enumerated() where index >= enterAt {
            let time = Double(frame.sample.time) / 1000
            let event = AppPenEvent(time: time + clock, x: 15 * frame.sample.x - 3500, y: 15 * frame.sample.y - 1500,
                                    proximity: index == enterAt ? .entering : .moving, source: "1")
            stream.append((time + lag, stream.count, .app(event)))
        }
        stream.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var pairing = SurfacePairing()
        var out: [SurfaceDelivery] = []
        for item in stream {
            switch item.arrival {
            case .penkit(let message): pairing.handle(message, into: &out)
            case .app(let event): pairing.handle(event, into: &out)
            }
        }
        pairing.handle(AppPenEvent(time: Double(frames.last!.sample.time) / 1000 + clock + 1, x: 0, y: 0,
                                   proximity: .leaving, source: "1"), into: &out)
        pairing.finish(into: &out)

        var sent: [UInt64: Int] = [:]
        for case .update(let update) in messages { if let stroke = update.stroke { sent[stroke, default: 0] += 1 } }
        let strokes = out.compactMap { if case .stroke(let s) = $0 { s.stroke.id } else { nil } }
        // The app's surface has no size and the pen is over it from `enterAt` on: every stroke
        // penkit finalized reaches it.
        let finalized = messages.filter { if case .stroke = $0 { true } else { false } }.count
        #expect(!strokes.isEmpty && strokes.count == finalized, "\(strokes.count) of \(finalized) strokes delivered")
        for case .frame(let frame) in out {
            if let stroke = frame.stroke { #expect(strokes.contains(stroke), "stroke \(stroke): frames came, its stroke never") }
        }
        for id in strokes {
            let frameAt = out.indices.filter { if case .frame(let f) = out[$0] { f.stroke == id } else { false } }
            let endedAt = out.indices.filter { if case .ended(let e) = out[$0] { e.stroke == id } else { false } }
            let strokeAt = out.indices.first { if case .stroke(let s) = out[$0] { s.stroke.id == id } else { false } }!
            let updates = out.filter { if case .update(let u) = $0 { u.stroke == id } else { false } }.count
            #expect(!frameAt.isEmpty, "stroke \(id): no frame")
            #expect(endedAt.count == 1, "stroke \(id): \(endedAt.count) ended deliveries")
            guard let ended = endedAt.first else { continue }
            #expect(frameAt.allSatisfy { $0 < ended }, "stroke \(id): ended before \(frameAt.filter { $0 > ended }.count) of its frames")
            #expect(ended < strokeAt, "stroke \(id): ended after its stroke")
            #expect(updates == sent[id, default: 0], "stroke \(id): \(updates) of \(sent[id, default: 0]) updates")
        }
    }
}
