import PenKit

/// The user's preferred actions, system-wide: `action-TRIGGER = NAME` per trigger
/// (`ActionTrigger`: `stylus`, `stylus2`, `stylus3`, `pad-N`, each also with `-double`) and
/// `action-double-press-ms`, the most time from one press to the next that makes a double press;
/// rings and strips (`PadMotionTrigger`: `ring-N-cw`, `ring-N-ccw`, `strip-N-up`, `strip-N-down`,
/// each also with `-mode-M`) with `action-ring-step` and `action-strip-step`, the motion of one step.
/// NAME is one of `PreferredAction.standard` or a custom name. Reloaded on SIGHUP.
struct ActionMap: Sendable, Equatable {
    var actions: [ActionTrigger: String] = [:]
    /// 300 ms, as long as a deliberate double click usually takes (GNOME's default is 400).
    var doublePressMicroseconds: UInt64 = 300_000
    var motions: [PadMotionTrigger: String] = [:]
    /// 10°: 36 steps a turn, two positions of a Wacom ring's 72 (a mouse wheel has about 24 detents a turn).
    var ringStepDegrees: Double = 10
    /// A tenth of the strip: 10 steps from end to end (a Wacom strip has 13 positions).
    var stripStep: Double = 0.1

    static let keys = ["action-TRIGGER", "action-double-press-ms", "action-ring-step", "action-strip-step"]

    /// The action for a step of a ring or strip in `mode`: the mode's own key first, then the
    /// key for every mode. Returns the trigger that matched, as the message names it.
    func motionAction(_ trigger: PadMotionTrigger, mode: UInt32) -> (action: String, trigger: PadMotionTrigger)? {
        guard !motions.isEmpty else { return nil }
        var inMode = trigger
        inMode.mode = mode
        if let action = motions[inMode] { return (action, inMode) }
        return motions[trigger].map { ($0, trigger) }
    }

    /// Sets one `action-…` key; false when the key is not an action key.
    mutating func set(key: String, value: String) throws(ConfigValueError) -> Bool {
        guard key.hasPrefix("action-") else { return false }
        if key == "action-double-press-ms" {
            guard let ms = UInt64(value), (1...5_000).contains(ms) else {
                throw ConfigValueError("action-double-press-ms must be an integer from 1 to 5000, not \"\(value)\"")
            }
            doublePressMicroseconds = ms * 1_000
            return true
        }
        if key == "action-ring-step" || key == "action-strip-step" {
            try setStep(key: key, value: value)
            return true
        }
        let name = String(key.dropFirst(7))
        if let motion = PadMotionTrigger(name: name) {
            try checkAction(key: key, value: value)
            motions[motion] = value
            return true
        }
        guard let trigger = ActionTrigger(name: name) else {
            throw ConfigValueError("unknown trigger in \(key) (known: stylus, stylus2, stylus3, pad-N, each also with -double; ring-N-cw, ring-N-ccw, strip-N-up, strip-N-down, each also with -mode-M)")
        }
        try checkAction(key: key, value: value)
        actions[trigger] = value
        return true
    }

    private mutating func setStep(key: String, value: String) throws(ConfigValueError) {
        let ring = key == "action-ring-step"
        let range = ring ? 1.0...180.0 : 0.01...1.0
        guard let step = Double(value), range.contains(step) else {
            throw ConfigValueError("\(key) must be a number from \(ring ? "1 to 180 (degrees)" : "0.01 to 1 (of the strip's length)"), not \"\(value)\"")
        }
        if ring { ringStepDegrees = step } else { stripStep = step }
    }

    private func checkAction(key: String, value: String) throws(ConfigValueError) {
        guard PreferredAction.isValid(value) else {
            throw ConfigValueError("\(key): \"\(value)\" is not an action name (\(PreferredAction.standard.joined(separator: ", ")), or a name of letters, digits, . _ - starting with a letter, at most 64)")
        }
    }
}
