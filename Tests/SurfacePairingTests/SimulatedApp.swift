import PenKit

/// An app window as a compositor would feed it, built from penkit's own frames and a map the test
/// chooses: each report inside the window becomes the app's event at the report's position under
/// the map, its time floored to ms on the app's clock; reports outside it get one proximity-out.
/// Written apart from `SurfacePairing`: it knows the truth, the pairing must learn it.
struct SimulatedApp {
    /// The map in force from a frame time (µs) on, per device; the window moves when a new one starts.
    var maps: [UInt32: [(from: UInt64, map: AffineTransform)]]
    var width: Double
    var height: Double
    /// The app clock minus penkit's (ms).
    var clockOffset: Double = 0
    /// Toolkit times in whole ms (tablet-v2); else to 0.1 ms.
    var floorToMilliseconds = true
    /// Positions in wl_fixed's 1/256 unit.
    var quantum = 1.0 / 256
    /// One app event in ten (motion only) never reaches the app.
    var dropFraction = 0.1
    /// The app's name for each penkit device.
    var sources: [UInt32: String] = [:]

    struct Arrival {
        /// When it arrives, on penkit's clock (µs): the app's events come a little after the frame.
        var at: Double
        var order: Int
        var kind: Kind
        enum Kind { case message(EngineMessage), app(AppPenEvent, report: Frame?) }
    }

    func map(device: UInt32, at time: UInt64) -> AffineTransform {
        var chosen = maps[device]!.first!.map
        for segment in maps[device]! where segment.from <= time { chosen = segment.map }
        return chosen
    }

    func isInside(_ frame: Frame) -> Bool {
        let p = map(device: frame.device, at: frame.sample.time).apply(x: frame.sample.x, y: frame.sample.y)
        return p.x >= 0 && p.x <= width && p.y >= 0 && p.y <= height
    }

    func appTime(_ micros: UInt64) -> Double {
        let ms = Double(micros) / 1000 + clockOffset
        return floorToMilliseconds ? ms.rounded(.down) : (ms * 10).rounded(.down) / 10
    }

    /// Everything in arrival order: penkit's messages at their time, the app's 0.5 ms later.
    func arrivals(_ messages: [EngineMessage]) -> [Arrival] {
        var out: [Arrival] = []
        var last: [UInt32: (frame: Frame, inside: Bool)] = [:]
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        func dropped() -> Bool {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / Double(1 << 53) < dropFraction
        }
        func app(_ frame: Frame, _ proximity: AppPenEvent.Proximity, at micros: UInt64) {
            let p = map(device: frame.device, at: frame.sample.time).apply(x: frame.sample.x, y: frame.sample.y)
            let event = AppPenEvent(time: appTime(micros), x: (p.x / quantum).rounded() * quantum,
                                    y: (p.y / quantum).rounded() * quantum, proximity: proximity,
                                    source: sources[frame.device] ?? "")
            out.append(Arrival(at: Double(micros) + 500, order: out.count, kind: .app(event, report: proximity == .leaving ? nil : frame)))
        }
        for message in messages {
            let at: Double
            if case .frame(let frame) = message { at = Double(frame.sample.time) } else { at = out.last?.at ?? 0 }
            out.append(Arrival(at: at, order: out.count, kind: .message(message)))
            guard case .frame(let frame) = message else { continue }
            let inside = isInside(frame)
            let previous = last[frame.device]
            // A gap of 30 ms is a new proximity: the previous one ended out of range.
            let newProximity = previous.map { frame.sample.time > $0.frame.sample.time + 30_000 } ?? true
            if newProximity, let previous, previous.inside { app(previous.frame, .leaving, at: previous.frame.sample.time + 1000) }
            if inside {
                if newProximity || !(previous?.inside ?? false) { app(frame, .entering, at: frame.sample.time) }
                else if !dropped() { app(frame, .moving, at: frame.sample.time) }
            } else if !newProximity, previous?.inside == true {
                app(frame, .leaving, at: frame.sample.time)
            }
            last[frame.device] = (frame, inside)
        }
        return out.sorted { ($0.at, $0.order) < ($1.at, $1.order) }
    }
}
