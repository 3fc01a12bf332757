extension Trace {
    /// The same recording played at `speed` times its pace: every event's offset from the
    /// trace's first event divided by `speed` (0.5: twice as slow), rounded to the µs. Frames keep
    /// their events and order; only the gaps between them change. make e2e plays traces slower
    /// through an emulated VM and replays them with the decoder at the same speed.
    package func played(atSpeed speed: Double) -> Trace {
        guard speed != 1, let first = devices.compactMap({ $0.events.first?.time }).min() else { return self }
        var copy = self
        for d in copy.devices.indices {
            for e in copy.devices[d].events.indices {
                let offset = Double(copy.devices[d].events[e].time - first) / speed
                copy.devices[d].events[e].time = first + UInt64(offset.rounded())
            }
        }
        return copy
    }
}
