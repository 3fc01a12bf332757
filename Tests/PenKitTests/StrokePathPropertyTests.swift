import PenTestSupport
import Testing
@testable import PenKit

/// Seeded random strokes: a random walk with strictly increasing times, like a
/// pen sampled at 100–1000 Hz.
private func randomSamples(_ g: inout SeededGenerator, count: Int) -> [StrokeSample] {
    var t: UInt64 = UInt64.random(in: 1_000_000...9_000_000, using: &g)
    var x = Double.random(in: 0...200, using: &g), y = Double.random(in: 0...150, using: &g)
    var heading = Double.random(in: 0..<(2 * .pi), using: &g)
    return (0..<count).map { _ in
        t += UInt64.random(in: 1_000...10_000, using: &g)
        heading += Double.random(in: -0.6...0.6, using: &g)
        let step = Double.random(in: 0...3, using: &g)
        x += step * PenMath.cos(heading)
        y += step * PenMath.sin(heading)
        return StrokeSample(time: t, x: x, y: y, force: .random(in: 0...1, using: &g),
                            azimuth: .random(in: 0..<(2 * .pi), using: &g), altitude: .random(in: 0.3...1.57, using: &g),
                            roll: 0, size: .random(in: 0.2...3, using: &g), opacity: .random(in: 0...1, using: &g),
                            estimated: [])
    }
}

private func randomPaths(seed: UInt64, count: Int = 200) -> [(samples: [StrokeSample], path: StrokePath)] {
    var g = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        let samples = randomSamples(&g, count: Int.random(in: 1...60, using: &g))
        return (samples, StrokePath.fitting(samples, creationTime: samples[0].time))
    }
}

/// Arc length between two parameters from a fine polyline (512 steps per
/// unit), independent of the path's own arc-length table.
private func fineLength(_ path: StrokePath, from a: Double, to b: Double) -> Double {
    let steps = max(Int(((b - a) * 512).rounded(.up)), 1)
    var total = 0.0
    var previous = path.interpolatedPoint(at: a)!
    for k in 1...steps {
        let p = path.interpolatedPoint(at: a + (b - a) * Double(k) / Double(steps))!
        total += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
        previous = p
    }
    return total
}

@Test func curvePassesThroughEverySampleAndEndsAtTheEndpoints() {
    for (samples, path) in randomPaths(seed: 1) {
        for (i, s) in samples.enumerated() {
            let p = path.interpolatedPoint(at: Double(i))!
            #expect(abs(p.x - s.x) < 1e-9 && abs(p.y - s.y) < 1e-9, "sample \(i) of \(samples.count)")
            #expect(abs(p.force - s.force) < 1e-9)
        }
        let first = path.interpolatedPoint(at: 0)!, last = path.interpolatedPoint(at: path.maximumParameter)!
        #expect(abs(first.x - samples[0].x) < 1e-9 && abs(last.y - samples.last!.y) < 1e-9)
        #expect(abs(first.timeOffset) < 1e-12)
        #expect(abs(last.timeOffset - Double(samples.last!.time - samples[0].time) / 1e6) < 1e-9)
        for stride in [StrokePath.Stride.distance(0.7), .time(0.004), .parametricStep(0.3)] {
            let points = path.interpolatedPoints(by: stride)
            #expect(points.first == first)
            #expect(points.last == last, "last point always included for \(stride)")
        }
    }
}

@Test func interpolatedParametersIncreaseAndTimeNeverGoesBack() {
    for (_, path) in randomPaths(seed: 2) {
        for stride in [StrokePath.Stride.distance(0.5), .time(0.003), .parametricStep(0.25)] {
            let us = path.interpolatedParameters(by: stride)
            for k in us.indices.dropFirst() { #expect(us[k] > us[k - 1], "\(stride)") }
        }
        let times = path.interpolatedPoints(by: .parametricStep(0.05)).map(\.timeOffset)
        for k in times.indices.dropFirst() { #expect(times[k] >= times[k - 1] - 1e-12) }
    }
}

@Test func stridesAreEvenlySpaced() {
    for (_, path) in randomPaths(seed: 3) {
        let d = 0.8
        let us = path.interpolatedParameters(by: .distance(d))
        for k in us.indices.dropFirst() {
            let gap = fineLength(path, from: us[k - 1], to: us[k])
            if k < us.count - 1 {
                #expect(abs(gap - d) < 0.01 * d, "distance stride \(gap) vs \(d)")
            } else {
                #expect(gap <= d * 1.01)
            }
        }
        let dt = 0.005
        let times = path.interpolatedPoints(by: .time(dt)).map(\.timeOffset)
        for k in times.indices.dropFirst() {
            if k < times.count - 1 { #expect(abs(times[k] - times[k - 1] - dt) < 1e-9) }
            else { #expect(times[k] - times[k - 1] <= dt + 1e-9) }
        }
        let s = 0.37
        let ps = path.interpolatedParameters(by: .parametricStep(s))
        for k in ps.indices.dropFirst().dropLast() { #expect(abs(ps[k] - ps[k - 1] - s) < 1e-9) }
    }
}

@Test func offsetByRoundTrips() {
    var g = SeededGenerator(seed: 4)
    for (_, path) in randomPaths(seed: 4, count: 80) where path.controlPoints.count > 1 {
        let total = path.length
        let duration = path.interpolatedPoint(at: path.maximumParameter)!.timeOffset
        for _ in 0..<6 {
            let u = Double.random(in: 0...path.maximumParameter, using: &g)
            let d = Double.random(in: -total...total, using: &g)
            let there = path.parametricValue(u, offsetBy: .distance(d))
            let reached = path.length(to: there) - path.length(to: u)
            let lengthAtU = path.length(to: u)
            if lengthAtU + d > 0 && lengthAtU + d < total {
                #expect(abs(reached - d) < 1e-6, "moved \(reached) for \(d)")
                let back = path.parametricValue(there, offsetBy: .distance(-d))
                #expect(abs(path.length(to: back) - lengthAtU) < 1e-6)
                #expect(abs(fineLength(path, from: min(u, there), to: max(u, there)) - abs(d)) < 0.01 * abs(d) + 1e-3)
            } else {
                #expect(there == 0 || there == path.maximumParameter, "clamped at an end")
            }
            let dt = Double.random(in: -duration...duration, using: &g)
            let t0 = path.interpolatedPoint(at: u)!.timeOffset
            let later = path.parametricValue(u, offsetBy: .time(dt))
            let t1 = path.interpolatedPoint(at: later)!.timeOffset
            if t0 + dt > 0 && t0 + dt < duration {
                #expect(abs(t1 - (t0 + dt)) < 1e-9)
                let back = path.parametricValue(later, offsetBy: .time(-dt))
                #expect(abs(path.interpolatedPoint(at: back)!.timeOffset - t0) < 1e-9)
            }
        }
    }
}

@Test func emptyAndSinglePointPaths() {
    let empty = StrokePath(controlPoints: [], creationTime: 0)
    #expect(empty.interpolatedPoint(at: 0) == nil)
    #expect(empty.interpolatedPoints(by: .distance(1)).isEmpty)
    #expect(empty.renderBounds == nil)
    let one = StrokePoint(x: 3, y: 4, timeOffset: 0, size: 2, opacity: 1, azimuth: 0, force: 0.5, altitude: 1)
    let single = StrokePath(controlPoints: [one], creationTime: 10)
    #expect(single.interpolatedPoints(by: .distance(1)) == [one])
    #expect(single.interpolatedPoint(at: 5) == one)
    #expect(single.renderBounds == StrokeBounds(minX: 2, minY: 3, maxX: 4, maxY: 5))
}

@Test func azimuthBlendsAcrossZero() {
    func point(_ x: Double, _ az: Double) -> StrokePoint {
        StrokePoint(x: x, y: 0, timeOffset: x, size: 1, opacity: 1, azimuth: az, force: 0.5, altitude: 1)
    }
    let path = StrokePath(controlPoints: [point(0, 2 * .pi - 0.1), point(1, 0.1)], creationTime: 0)
    let mid = path.interpolatedPoint(at: 0.5)!.azimuth
    #expect(min(mid, 2 * .pi - mid) < 1e-9, "halfway between 354° and 6° is 0°, got \(mid)")
}

@Test func renderBoundsCoverEverySampleWithItsWidth() {
    for (samples, path) in randomPaths(seed: 5, count: 50) {
        let b = path.renderBounds!
        for s in samples {
            #expect(b.contains(x: s.x - s.size / 2 + 1e-9, y: s.y - s.size / 2 + 1e-9))
            #expect(b.contains(x: s.x + s.size / 2 - 1e-9, y: s.y + s.size / 2 - 1e-9))
        }
    }
}
