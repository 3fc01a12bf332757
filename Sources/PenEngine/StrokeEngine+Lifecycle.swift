import PenKit

extension StrokeEngine {
    /// Starts as an engine that has seen `key` go a whole tilt timeout without tilt before: its
    /// proximities expect none (a replay of a window cut from a longer session).
    package mutating func learnedWithoutTilt(_ key: ToolKey) {
        toolsWithoutTilt.insert(key)
    }

    mutating func proximityIn(_ key: ToolKey, event: TabletEvent) {
        let tilt: TiltPhase
        if !event.toolAxes.isSuperset(of: [.tiltX, .tiltY]) {
            tilt = .unsupported
        } else if Self.isMeasuredTilt(event) {
            // The proximity's own frame carries a real tilt: its first sample uses it,
            // whether the tool arrives hovering or already in contact.
            if toolsWithoutTilt.contains(key) { toolsWithoutTilt.remove(key) }
            tilt = .measured
        } else if toolsWithoutTilt.contains(key) {
            tilt = .absent
        } else {
            tilt = .unknown(deadline: event.time.saturatingAdd(configuration.tiltTimeout.wholeMicroseconds))
            unknownTiltTools += 1
        }
        tools[key] = ToolState(tilt: tilt)
        // A new proximity: libinput's smoothing restarts, and earlier motion says nothing; what
        // was learned about how sure predictions are belongs to this tool.
        prediction?.reset(.proximity(key))
    }

    /// Whether a proximity-in event's tilt is a measurement. libinput reports the
    /// device's last tilt at proximity-in, and a pen that never sent tilt leaves the
    /// kernel's initial raw value 0 there, which libinput's tilt normalization turns
    /// into exactly −64°/−64° (a range starting at 0, mapped onto ±64°) or 0°/0° (a
    /// range centred on 0). Any other pair was sent by the pen. The signs are not looked at:
    /// a configured rotation or left-handed mapping turns (−64°, −64°) into (±64°, ±64°)
    /// before the engine sees it.
    static func isMeasuredTilt(_ event: TabletEvent) -> Bool {
        let x = event.axes.tiltX, y = event.axes.tiltY
        guard x.isFinite, y.isFinite else { return false }
        return !((abs(x) == 64 && abs(y) == 64) || (x == 0 && y == 0))
    }

    mutating func proximityOut(_ key: ToolKey, at time: UInt64, into out: inout [EngineMessage]) {
        guard let state = tools[key] else { return }
        if state.activeStroke != nil { end(key, at: time, cancelled: true, into: &out) }
        if case .unknown = state.tilt {
            // No more tilt can come in this proximity; whether the tool has tilt stays open.
            unknownTiltTools -= 1
            expireAwaitingTilt(key, into: &out)
        }
        tools[key] = nil
    }

    mutating func begin(_ key: ToolKey, event: TabletEvent, into out: inout [EngineMessage]) {
        let id = nextStrokeID
        nextStrokeID += 1
        let ink = configuration.ink(for: key.tool)
        strokes[id] = StrokeState(id: id, key: key, ink: ink)
        tools[key]?.activeStroke = id
        publicationOrder.append(id)
        out.append(.began(StrokeBegan(stroke: id, tool: key.tool, ink: ink, time: event.time, device: key.device)))
    }

    mutating func end(_ key: ToolKey, at time: UInt64, cancelled: Bool, into out: inout [EngineMessage]) {
        guard let id = tools[key]?.activeStroke, let pending = withStroke(id, { stroke -> Int in
            stroke.ended = true
            stroke.cancelled = cancelled
            return stroke.pending
        }) else { return }
        tools[key]?.activeStroke = nil
        out.append(.ended(StrokeEnded(stroke: id, time: time, cancelled: cancelled, pendingUpdates: pending,
                                       device: key.device)))
        // A source may state seconds of latency; once the pen is up, the stroke waits for its
        // readings at most `readingsAfterEnd` more: one lost reading must not hold it that long.
        guard pending > 0 else { return }
        let latest = time.saturatingAdd(configuration.readingsAfterEnd.wholeMicroseconds)
        for index in pendingForce.indices where pendingForce[index].stroke == id && pendingForce[index].deadline > latest {
            pendingForce[index].deadline = latest
        }
    }

    /// Publishes, in begin order, every stroke at the head of the queue that has
    /// ended and has nothing pending.
    mutating func publishReady(into out: inout [EngineMessage]) {
        while let id = publicationOrder.first, let ready = strokes[id].map({ $0.ended && $0.pending == 0 }), ready {
            publicationOrder.removeFirst()
            // Taken out of the table, so the samples move into the stroke without a copy.
            guard let state = strokes.removeValue(forKey: id) else { break }
            let stroke = Stroke(id: id, tool: state.key.tool, ink: state.ink, cancelled: state.cancelled,
                                samples: state.samples)
            out.append(.stroke(FinalizedStroke(seq: nextSeq, stroke: stroke, device: state.key.device)))
            nextSeq += 1
        }
    }
}
