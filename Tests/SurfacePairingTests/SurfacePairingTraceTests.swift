import PenKit
import Testing

/// Each real trace, through an app window the test places with a known map: offset, scale, a
/// quarter turn (0…3), one with a mirror; times floored to ms on another clock; 10 % of the app's
/// motion events dropped; the window moved mid-stroke; a quarter of the trace's width outside the
/// window. Expected values come from the trace and the chosen maps.
@Suite struct SurfacePairingTraceTests {
    struct Placement: CustomStringConvertible, Sendable {
        var quarterTurns: Int
        var scale: Double
        var mirrored: Bool
        var clockOffset: Double
        var description: String { "\(quarterTurns * 90)° ×\(scale)\(mirrored ? " mirrored" : "") clock +\(clockOffset) ms" }

        /// Rotation and scale only; the offset is chosen from the trace.
        var linear: AffineTransform {
            let turns = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][quarterTurns % 4]
            var t = AffineTransform(a: turns.0 * scale, b: turns.1 * scale, c: -turns.1 * scale, d: turns.0 * scale, tx: 0, ty: 0)
            if mirrored { t = t.concatenating(.scale(x: -1, y: 1)) }
            return t
        }
    }

    static let placements: [Placement] = [
        Placement(quarterTurns: 0, scale: 3.78, mirrored: false, clockOffset: 0),
        Placement(quarterTurns: 1, scale: 2.5, mirrored: false, clockOffset: 12_345_678.4),
        Placement(quarterTurns: 2, scale: 1.25, mirrored: true, clockOffset: -3_000.7),
        Placement(quarterTurns: 3, scale: 4.2, mirrored: false, clockOffset: 0.3),
    ]

    static let cases: [(String, Int)] = TraceMessages.penTraces.flatMap { trace in placements.indices.map { (trace, $0) } }

    @Test(arguments: cases)
    func recoversTheMapAndDeliversOnlyInsideTheWindow(trace: String, placementIndex: Int) throws {
        let placement = Self.placements[placementIndex]
        let messages = try TraceMessages.messages(trace)
        let frames = messages.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        try #require(!frames.isEmpty)
        let scene = Scene(frames: frames, placement: placement)
        var pairing = SurfacePairing(surfaceWidth: scene.app.width, surfaceHeight: scene.app.height)
        var deliveries: [SurfaceDelivery] = []
        var appEvents = 0, readyAfter: Int?, worstMapError = 0.0, readyChecks = 0
        for arrival in scene.app.arrivals(messages) {
            switch arrival.kind {
            case .message(let m): pairing.handle(m, into: &deliveries)
            case .app(let e, let report):
                pairing.handle(e, into: &deliveries)
                appEvents += 1
                guard let report, let estimate = pairing.estimate(device: report.device), estimate.ready else { continue }
                if readyAfter == nil { readyAfter = appEvents }
                let truth = scene.app.map(device: report.device, at: report.sample.time)
                worstMapError = max(worstMapError, scene.worstDistance(estimate.transform, truth))
                readyChecks += 1
            }
        }
        pairing.finish(into: &deliveries)

        // Ready, and within 0.01 surface units of the truth at every position of the trace, whenever it says ready.
        let ready = try #require(readyAfter, "\(trace) \(placement): never ready")
        #expect(ready <= 40, "\(trace) \(placement): ready after \(ready) app events")
        #expect(worstMapError <= 0.01, "\(trace) \(placement): map off by \(worstMapError) over \(readyChecks) checks")

        // Every frame delivered was a report inside the window, at its true place.
        let delivered = deliveries.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        let byTime = Dictionary(frames.map { (FrameKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        var worstDelivery = 0.0, outside = 0
        for f in delivered {
            let original = try #require(byTime[FrameKey(f)])
            if !scene.app.isInside(original) { outside += 1 }
            let truth = scene.app.map(device: f.device, at: f.sample.time).apply(x: original.sample.x, y: original.sample.y)
            worstDelivery = max(worstDelivery, hypot(truth.x - f.sample.x, truth.y - f.sample.y))
        }
        #expect(outside == 0, "\(trace) \(placement): \(outside) frames delivered while the pen was outside")
        #expect(worstDelivery <= 0.01, "\(trace) \(placement): a delivered sample off by \(worstDelivery)")
        // Nearly every inside report after readiness reaches the app (not the few while a move is confirmed).
        let insideFrames = frames.filter(scene.app.isInside).count
        #expect(Double(delivered.count) >= 0.8 * Double(insideFrames),
                "\(trace) \(placement): \(delivered.count) of \(insideFrames) inside frames delivered")
        let moves = deliveries.filter { if case .map(let m) = $0 { m.change == .moved } else { false } }.count
        #expect(moves >= 1, "\(trace) \(placement): the window's move went unnoticed")

        // Finalized strokes: every point where the map of its time puts it.
        for case .stroke(let s) in deliveries {
            for point in s.stroke.points {
                let original = try #require(scene.strokePoint(point.time, device: s.device))
                let truth = scene.app.map(device: s.device, at: point.time).apply(x: original.x, y: original.y)
                #expect(hypot(truth.x - point.x, truth.y - point.y) <= 0.01)
            }
        }
        print("surface-pairing \(trace) \(placement): ready after \(ready) app events, map error ≤ \(worstMapError), "
              + "\(delivered.count)/\(insideFrames) inside frames delivered, \(moves) move(s)")
    }

    struct FrameKey: Hashable {
        var device: UInt32, time: UInt64
        init(_ f: Frame) { device = f.device; time = f.sample.time }
    }

    /// The trace placed in the window: the truth maps, the window's size, and where the move falls.
    struct Scene {
        var app: SimulatedApp
        var frames: [Frame]
        var positions: [(x: Double, y: Double)]
        var samples: [FrameKey: Sample]

        init(frames: [Frame], placement: Placement) {
            self.frames = frames
            positions = frames.map { ($0.sample.x, $0.sample.y) }
            samples = Dictionary(frames.map { (FrameKey($0), $0.sample) }, uniquingKeysWith: { a, _ in a })
            let linear = placement.linear
            let mapped = positions.map { linear.apply(x: $0.x, y: $0.y) }
            let minX = mapped.map(\.x).min()!, maxX = mapped.map(\.x).max()!
            let minY = mapped.map(\.y).min()!, maxY = mapped.map(\.y).max()!
            var first = linear
            first.tx = 40 - minX
            first.ty = 40 - minY
            // The window moves mid-way through the longest stroke, by a few mm's worth.
            var strokes: [UInt64: [UInt64]] = [:]
            for f in frames { if let s = f.stroke { strokes[s, default: []].append(f.sample.time) } }
            let longest = strokes.values.max { $0.count < $1.count } ?? [frames[frames.count / 2].sample.time]
            var moved = first
            moved.tx += 6 * placement.scale
            moved.ty -= 4 * placement.scale
            let devices = Set(frames.map(\.device))
            app = SimulatedApp(maps: Dictionary(uniqueKeysWithValues: devices.map {
                ($0, [(from: UInt64(0), map: first), (from: longest[longest.count / 2], map: moved)])
            }), width: 40 + 0.75 * (maxX - minX), height: 80 + (maxY - minY))
            app.clockOffset = placement.clockOffset
        }

        /// The largest distance between two maps over every position of the trace.
        func worstDistance(_ a: AffineTransform, _ b: AffineTransform) -> Double {
            var worst = 0.0
            for p in positions {
                let u = a.apply(x: p.x, y: p.y), v = b.apply(x: p.x, y: p.y)
                worst = max(worst, hypot(u.x - v.x, u.y - v.y))
            }
            return worst
        }

        func strokePoint(_ time: UInt64, device: UInt32) -> Sample? { samples[FrameKey(device: device, time: time)] }
    }
}

extension SurfacePairingTraceTests.FrameKey {
    init(device: UInt32, time: UInt64) { self.device = device; self.time = time }
}

func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
