import PenKit

/// Counts steps of a finger's motion on pad rings and strips, as a desktop turns a ring into
/// scroll or zoom steps: from the finger's first position (which moves nothing), the motion
/// since the last step adds up, and every `step` of it (degrees on a ring, a fraction of the
/// strip's length on a strip) is one step, clockwise or down when libinput's position grows.
/// A ring's move is its shorter way round, so 350° to 0° is 10° clockwise, not 350° back.
/// Turning back starts a new count in the other direction (what was left of a step is dropped).
/// Position -1 (libinput's finger up) ends the motion: the next touch starts afresh.
struct PadMotion {
    private struct Control: Hashable {
        var device: Int
        var kind: PadEvent.Kind
        var number: UInt32
    }

    private struct Touch {
        var position: Double
        /// Motion since the last step, signed as its direction.
        var pending: Double
    }

    private var touches: [Control: Touch] = [:]

    /// The steps `event` completes: positive clockwise or down, negative the other way.
    /// 0 for buttons, the first position of a touch and its end.
    mutating func steps(of event: PadEvent, device: Int, step: Double) -> Int {
        guard event.kind != .button, step > 0 else { return 0 }
        let control = Control(device: device, kind: event.kind, number: event.number)
        guard event.position >= 0 else {
            touches[control] = nil
            return 0
        }
        guard var touch = touches[control] else {
            touches[control] = Touch(position: event.position, pending: 0)
            return 0
        }
        var delta = event.position - touch.position
        if event.kind == .ring {
            if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
        }
        touch.pending = (touch.pending < 0) == (delta < 0) ? touch.pending + delta : delta
        // A millionth of a step of slack: positions libinput computed in floating point
        // (10° apart, 1/12 of a strip apart) add up to a hair under a whole step.
        let sign = touch.pending < 0 ? -1 : 1
        let count = Int((abs(touch.pending) / step + 1e-6).rounded(.down))
        touch.pending -= Double(sign * count) * step
        touch.position = event.position
        touches[control] = touch
        return sign * count
    }

    /// A device went away: its touches end.
    mutating func remove(device: Int) {
        touches = touches.filter { $0.key.device != device }
    }
}
