import PenKit

/// libinput's proximity-out quirk. Some tablets send BTN_TOOL_PEN only when the pen first
/// appears and never release it; until a device has shown a real release, 50 ms without
/// events ends the proximity, and the next axis event starts a new one. The timer fires at
/// its expiry on the event clock, as libinput's timerfd fires on the kernel's.
extension TabletDecoder {
    static let forcedProximityOutTimeout: UInt64 = 50_000

    /// When libinput's timer (the forced proximity-out) fires next, on the event clock; nil when
    /// none is armed. A real-time driver sleeps until then and calls `advance(to:)`, as libinput's
    /// timerfd wakes it without input.
    package var nextTimerDeadline: UInt64? {
        guard let expiry = proximityOutExpiry, expiry != UInt64.max else { return nil }
        return expiry
    }

    mutating func setProximityTimer(_ time: UInt64) {
        guard needToForceProximityOut else { return }
        // Saturated: UInt64.max reads as no timer armed.
        proximityOutExpiry = time.saturatingAdd(Self.forcedProximityOutTimeout)
    }

    mutating func fireTimers(upTo time: UInt64, into out: inout [TabletEvent]) {
        while let expiry = proximityOutExpiry, expiry <= time, expiry != UInt64.max {
            if status.contains(.toolInContact) || status.contains(.buttonsDown) {
                // the timer only re-arms itself every 50 ms until the tip or buttons lift,
                // which takes an event: jump to the last re-arm instead of looping through them
                let periods = (time - expiry) / Self.forcedProximityOutTimeout
                proximityOutExpiry = nil
                setProximityTimer(expiry + periods * Self.forcedProximityOutTimeout)
                continue
            }
            proximityOutExpiry = nil
            proximityTimerFired(now: expiry, into: &out)
        }
    }

    /// The live libinput's timer, served late (`DecoderOptions.libinputProximityOuts`): it fired
    /// at its time after this frame was queued but before libinput read it, right after the
    /// frame the decoder read last. So the proximity ended then, before this frame, which starts
    /// a new one. Only at a frame's first event, with the timer armed, as libinput checks it.
    mutating func fireLateTimer(before time: UInt64, into out: inout [TabletEvent]) {
        guard time > lastEventTime else { return }
        while let first = liveProximityOuts.first, first.after < lastEventTime { liveProximityOuts.removeFirst() }
        guard let live = liveProximityOuts.first, live.after == lastEventTime else { return }
        liveProximityOuts.removeFirst()
        // at or before this frame, the decoder makes it itself (a release, or the timer on time)
        guard live.time > time, let expiry = proximityOutExpiry, expiry != UInt64.max, expiry <= live.time,
              !status.contains(.toolOutOfProximity) else { return }
        proximityOutExpiry = nil
        proximityTimerFired(now: live.time, into: &out)
    }

    private mutating func proximityTimerFired(now: UInt64, into out: inout [TabletEvent]) {
        if status.contains(.toolInContact) || status.contains(.buttonsDown) {
            setProximityTimer(now)
            return
        }
        if lastEventTime > now &- Self.forcedProximityOutTimeout {
            setProximityTimer(lastEventTime)
            return
        }
        // Injected straight into the tablet code: the kernel and libevdev still think the pen is in.
        proximityOutInProgress = true
        process(type: Code.evKey, code: Code.btnToolPen, value: 0, time: now, into: &out)
        process(type: Code.evSyn, code: Code.synReport, value: 0, time: now, into: &out)
        proximityOutInProgress = false
        proximityOutForced = true
    }
}
