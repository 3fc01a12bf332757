import Foundation
import Testing
@testable import PenEngine
import PenEvaluation

/// Motions whose future is known exactly, sampled every `interval` µs.
private func samples(count: Int, interval: UInt64 = 5_000, position: (Double) -> (Double, Double)) -> [PredictionSample] {
    (0..<count).map { i in
        let t = Double(i) * Double(interval) * 1e-6
        let (x, y) = position(t)
        return PredictionSample(time: 1_000_000 + UInt64(i) * interval, x: x, y: y, pressure: 0.5)
    }
}

private func feed(_ predictor: some Predictor, _ input: [PredictionSample]) -> some Predictor {
    var p = predictor
    for sample in input { p.update(sample) }
    return p
}

@Suite("Predictors on analytic motion")
struct PredictorMotionTests {
    let dt = 0.016

    @Test("constant velocity: linear and lsq2 are exact")
    func constantVelocity() {
        let motion: (Double) -> (Double, Double) = { t in (5 + 120 * t, 8 - 45 * t) }
        let input = samples(count: 12, position: motion)
        let end = Double(11) * 0.005 + dt
        let (x, y) = motion(end)
        for predictor in [LinearPredictor() as any Predictor, LeastSquaresPredictor()] {
            let p = feed(predictor, input).extrapolate(by: dt)!
            #expect(abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9, "\(predictor.name)")
        }
    }

    @Test("constant acceleration: lsq2 is exact, linear lags by a·dt·(dt + interval)/2")
    func constantAcceleration() {
        let motion: (Double) -> (Double, Double) = { t in (5 + 50 * t + 0.5 * 2_000 * t * t, 3 + 0.5 * -800 * t * t) }
        let input = samples(count: 12, position: motion)
        let end = Double(11) * 0.005 + dt
        let (x, y) = motion(end)
        let quadratic = feed(LeastSquaresPredictor(), input).extrapolate(by: dt)!
        #expect(abs(quadratic.x - x) < 1e-9 && abs(quadratic.y - y) < 1e-9)
        // The last two samples give the velocity at the midpoint between them.
        let linear = feed(LinearPredictor(), input).extrapolate(by: dt)!
        #expect(abs((x - linear.x) - 2_000 * dt * (dt + 0.005) / 2) < 1e-9)
    }

    @Test("constant velocity: the Kalman filter converges to the line")
    func kalmanConverges() {
        let motion: (Double) -> (Double, Double) = { t in (5 + 120 * t, 8 - 45 * t) }
        let input = samples(count: 60, position: motion)
        let (x, y) = motion(Double(59) * 0.005 + dt)
        let p = feed(KalmanPredictor(), input).extrapolate(by: dt)!
        #expect(hypot(p.x - x, p.y - y) < 0.01 * 128 * dt)  // within 1 % of the travel
    }

    @Test("constant velocity: penkit stays on the line and keeps 90 % of the travel")
    func penkitOnLine() {
        let motion: (Double) -> (Double, Double) = { t in (5 + 120 * t, 8 - 45 * t) }
        let input = samples(count: 30, position: motion)
        let last = input.last!
        let p = feed(PenkitPredictor(), input).extrapolate(by: dt)!
        let travel = (120.0 * 120 + 45 * 45).squareRoot() * dt
        let along = ((p.x - last.x) * 120 + (p.y - last.y) * -45) / (120.0 * 120 + 45 * 45).squareRoot()
        let off = abs((p.x - last.x) * 45 + (p.y - last.y) * 120) / (120.0 * 120 + 45 * 45).squareRoot()
        #expect(off < 1e-9)
        #expect(abs(along - 0.9 * travel) < 1e-9)
    }

    @Test("timestamps jittered by USB polling: penkit keeps the velocity, linear does not")
    func timestampJitter() {
        // The pen moves 0.5 mm per 5 ms report; timestamps land 2 ms early or late in turn.
        let input = (0..<30).map { (i: Int) -> PredictionSample in
            let skew: UInt64 = i % 2 == 0 ? 0 : 3_000
            let time: UInt64 = 1_000_000 + UInt64(i) * 5_000 + skew
            return PredictionSample(time: time, x: 0.5 * Double(i), y: 0, pressure: 0.5)
        }
        let last = input.last!
        let truth = last.x + 100 * dt
        let penkit = feed(PenkitPredictor(), input).extrapolate(by: dt)!
        let linear = feed(LinearPredictor(), input).extrapolate(by: dt)!
        #expect(abs(penkit.x - truth) < 0.2)
        #expect(abs(linear.x - truth) > 0.5)
    }

    @Test("uniform circular motion: penkit's arc stays closer than a straight line")
    func circle() {
        let radius = 20.0, rate = 8.0  // 160 mm/s around a 20 mm circle
        let motion: (Double) -> (Double, Double) = { t in (radius * cos(rate * t), radius * sin(rate * t)) }
        let input = samples(count: 30, position: motion)
        let (x, y) = motion(Double(29) * 0.005 + 0.032)
        let penkit = feed(PenkitPredictor(), input).extrapolate(by: 0.032)!
        let linear = feed(LinearPredictor(), input).extrapolate(by: 0.032)!
        #expect(hypot(penkit.x - x, penkit.y - y) < hypot(linear.x - x, linear.y - y))
    }

    @Test("force and orientation follow their trend and stay in range")
    func attributes() {
        let input = (0..<10).map { (i: Int) -> PredictionSample in
            let step = 0.01 * Double(i)
            let time: UInt64 = 1_000_000 + UInt64(i) * 5_000
            return PredictionSample(time: time, x: Double(i), y: 0, pressure: 0.9 + step,
                                    azimuth: 6.2 + step, altitude: 1.5 + step)
        }
        let p = feed(LinearPredictor(), input).extrapolate(by: 0.032)!
        // 0.01 per 5 ms for 32 ms: +0.064, clamped at the range ends; azimuth wraps past 2π.
        #expect(p.pressure == 1)
        #expect(p.altitude == .pi / 2)
        let expectedAzimuth: Double = 6.29 + 0.064 - 2 * Double.pi
        #expect(abs(p.azimuth - expectedAzimuth) < 1e-9)
    }
}
