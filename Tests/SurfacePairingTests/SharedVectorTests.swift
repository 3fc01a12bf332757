import Foundation
import PenKit

typealias PenAffine = PenKit.AffineTransform
import Testing

/// Tests/Fixtures/surface-pairing/vectors.json, the cases the JavaScript and Python clients are
/// checked against too (scripts/surface-pairing-vectors.py says how they were made).
@Suite struct SharedVectorTests {
    static var vectors: [String: Any] {
        let data = FileManager.default.contents(atPath: TraceMessages.vectorsPath) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
    static var cases: [[String: Any]] { vectors["cases"] as? [[String: Any]] ?? [] }
    static var names: [String] { cases.compactMap { $0["name"] as? String } }

    @Test func theFileHasCases() {
        #expect(Self.cases.count >= 5)
    }

    @Test(arguments: names)
    func vector(_ name: String) throws {
        let tolerance = try #require(Self.vectors["tolerance"] as? Double)
        let testCase = try #require(Self.cases.first { $0["name"] as? String == name })
        let result = try VectorRun(testCase)
        for problem in result.problems(tolerance: tolerance) { Issue.record("\(name): \(problem)") }
        print("surface-pairing vector \(name): ready after \(result.readyAfter.map(String.init) ?? "never"), "
              + "\(result.frames.count) frames delivered, \(result.strokes) strokes")
        if let agreed = testCase["agreed"] as? [String: Any] {
            #expect(agreed["readyAfter"] as? Int == result.readyAfter, "\(name): ready after")
            #expect(agreed["deliveredFrames"] as? Int == result.frames.count, "\(name): frames delivered")
        }
    }
}

/// One case run through SurfacePairing in its arrival order, and the checks every implementation makes.
struct VectorRun {
    var truth: [UInt32: [(from: UInt64, map: PenAffine)]] = [:]
    var allowed: Set<[UInt64]> = []
    var expectReady: Bool
    var readyAfter: Int?
    var frames: [(frame: Frame, original: Frame, stale: Bool)] = []
    var strokes = 0
    var finalMaps: [UInt32: PenAffine] = [:]
    var lastPositions: [UInt32: [(x: Double, y: Double)]] = [:]

    init(_ c: [String: Any]) throws {
        let window = try #require(c["window"] as? [String: Double])
        var pairing = SurfacePairing(surfaceWidth: window["width"], surfaceHeight: window["height"])
        for (device, segments) in try #require(c["truth"] as? [String: [[String: Any]]]) {
            truth[UInt32(device)!] = try segments.map { s in
                let m = try #require(s["transform"] as? [Double])
                return ((s["from"] as? NSNumber)!.uint64Value, PenAffine(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
            }
        }
        for pair in try #require(c["allowed"] as? [[NSNumber]]) { allowed.insert(pair.map(\.uint64Value)) }
        expectReady = try #require(c["expectReady"] as? Bool)
        var originals: [[UInt64]: Frame] = [:]
        var out: [SurfaceDelivery] = []
        var appEvents = 0
        var noticedMove: Set<UInt32> = []
        func collect(_ deliveries: inout [SurfaceDelivery]) {
            for d in deliveries {
                switch d {
                case .map(let m):
                    if m.change == .ready, readyAfter == nil { readyAfter = appEvents }
                    if m.change != .ready { noticedMove.insert(m.device) }
                case .frame(let f):
                    let original = originals[[UInt64(f.device), f.sample.time]]!
                    let moves = truth[f.device]!.dropFirst().map(\.from)
                    let stale = moves.contains { f.sample.time >= $0 } && !noticedMove.contains(f.device)
                    frames.append((f, original, stale))
                case .stroke: strokes += 1
                default: break
                }
            }
            deliveries.removeAll()
        }
        for input in try #require(c["inputs"] as? [[String: Any]]) {
            if let frame = input["frame"] as? [String: Any] {
                let line = String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self)
                let message = try EngineMessage.decode(jsonLine: line)
                if case .frame(let f) = message {
                    originals[[UInt64(f.device), f.sample.time]] = f
                    lastPositions[f.device, default: []].append((f.sample.x, f.sample.y))
                    // penkitd's virtual tablet sends `delivered` on the frame itself (docs/protocol.md):
                    // read as the wire gives it, and paired on without being handed over separately.
                    // With its write time (µs) where penkitd gave one: what the app's events carry.
                    if let d = frame["delivered"] as? [String: NSNumber] {
                        #expect(f.delivered == DeliveredPosition(x: d["x"]!.doubleValue, y: d["y"]!.doubleValue,
                                                                 time: d["t"]?.uint64Value))
                    }
                }
                pairing.handle(message, into: &out)
            } else if let app = input["app"] as? [String: Any] {
                appEvents += 1
                let event = AppPenEvent(time: (app["t_ms"] as! NSNumber).doubleValue, x: (app["x"] as? NSNumber)?.doubleValue ?? 0,
                                        y: (app["y"] as? NSNumber)?.doubleValue ?? 0,
                                        proximity: AppPenEvent.Proximity(rawValue: app["proximity"] as! String)!,
                                        source: app["source"] as? String ?? "")
                pairing.handle(event, into: &out)
            }
            collect(&out)
        }
        pairing.finish(into: &out)
        collect(&out)
        for device in pairing.deviceIDs { if let e = pairing.estimate(device: device) { finalMaps[device] = e.transform } }
    }

    func truthMap(_ device: UInt32, _ time: UInt64) -> PenAffine {
        var chosen = truth[device]!.first!.map
        for s in truth[device]! where s.from <= time { chosen = s.map }
        return chosen
    }

    func problems(tolerance: Double) -> [String] {
        var found: [String] = []
        if !expectReady {
            if !frames.isEmpty { found.append("\(frames.count) frames delivered though no map can be told") }
            return found
        }
        if readyAfter == nil { found.append("never ready") }
        let stale = frames.filter { $0.stale }.count
        if stale > 3 { found.append("\(stale) frames placed by a map from before the window moved") }
        for (f, original, isStale) in frames where !isStale {
            if !allowed.contains([UInt64(f.device), f.sample.time]) { found.append("frame \(f.sample.time) delivered while the pen was elsewhere") }
            let truth = truthMap(f.device, f.sample.time)
            let p = truth.apply(x: original.sample.x, y: original.sample.y)
            if hypot(p.x - f.sample.x, p.y - f.sample.y) > tolerance { found.append("frame \(f.sample.time) off by \(hypot(p.x - f.sample.x, p.y - f.sample.y))") }
            if let last = original.predicted.last, let mapped = f.predicted.last {
                let q = truth.apply(x: last.x, y: last.y)
                if hypot(q.x - mapped.x, q.y - mapped.y) > tolerance { found.append("prediction of \(f.sample.time) misplaced") }
            }
            if let e = original.expectedError, let mapped = f.expectedError, abs(mapped - e * truth.widthScale) > 1e-3 * e * truth.widthScale {
                found.append("expectedError of \(f.sample.time) not scaled to the surface")
            }
        }
        // At the end, the map where the pen last was (its last 50 reports) is the truth's within tolerance.
        for (device, segments) in truth {
            guard let map = finalMaps[device] else { found.append("device \(device): no map at the end"); continue }
            let final = segments.last!.map
            for p in (lastPositions[device] ?? []).suffix(50) {
                let u = map.apply(x: p.x, y: p.y), v = final.apply(x: p.x, y: p.y)
                if hypot(u.x - v.x, u.y - v.y) > tolerance { found.append("device \(device): final map off by \(hypot(u.x - v.x, u.y - v.y))"); break }
            }
        }
        return found
    }
}
