/// Which frame each app event belongs to, and the clock offset that says so.
///
/// With the offset c known, the app event at time T belongs to a frame whose time t (ms) has
/// T − t in [c − slack, c + 1 + slack]: c is the smallest lag, the toolkit's flooring adds up to
/// 1 ms and delivery delay up to `timeSlack`. Among several such frames (fast tablets, two
/// devices) the one the map puts nearest the app's position wins.
extension SurfacePairing {
    mutating func resolve(final: Bool, into out: inout [SurfaceDelivery]) {
        if clockOffset == nil || pending.first.map({ sources[$0.source]?.device == nil && devices.count > 1 }) == true {
            if !(searchIsDue(final: final) && search(final: final)) {
                if pending.count > configuration.searchLimit { pending.removeFirst(pending.count - configuration.searchLimit) }
                return
            }
        }
        var done = 0
        while done < pending.count, let offset = clockOffset {
            let event = pending[done]
            let latest = event.time - offset + configuration.timeSlack
            // Its frame may not have come yet: wait while no device has a frame past the window.
            if !final, !devices.values.contains(where: { ($0.frames.last?.time ?? -.infinity) > latest }) { break }
            pairOne(event, offset: offset, into: &out)
            done += 1
        }
        pending.removeFirst(done)
    }

    /// The frames of `link` inside the window of an app event at `time` under `offset`.
    func window(_ link: DeviceLink, time: Double, offset: Double) -> Range<Int> {
        let lo = link.firstFrame(atOrAfter: time - offset - 1 - configuration.timeSlack)
        let hi = link.firstFrame(atOrAfter: time - offset + configuration.timeSlack + 1e-9)
        return lo..<max(lo, hi)
    }

    mutating func pairOne(_ event: AppPenEvent, offset: Double, into out: inout [SurfaceDelivery]) {
        var best: (device: UInt32, index: Int, score: Double)?
        let assigned = sources[event.source]?.device
        for id in devices.keys.sorted() where assigned == nil || assigned == id {
            let link = devices[id]!
            for i in window(link, time: event.time, offset: offset) {
                let f = link.frames[i]
                // With a map: distance off it (mm). Without: nearness to the middle of the window, in
                // ms scaled far below any distance, so a device with a map that fits always wins.
                let score: Double
                if let map = link.map {
                    let q = map.apply(x: f.x, y: f.y)
                    let dx = q.x - event.x, dy = q.y - event.y
                    score = (dx * dx + dy * dy).squareRoot() / max(map.widthScale, 1e-12)
                } else {
                    score = 1e6 + abs(event.time - f.time - offset - 0.5)
                }
                if best == nil || score < best!.score { best = (id, i, score) }
            }
        }
        guard let best else {
            misses += 1
            if misses >= configuration.missesBeforeSearch {
                clockOffset = nil
                lags.removeAll()
                misses = 0
            }
            return
        }
        misses = 0
        let link = devices[best.device]!
        let f = link.frames[best.index]
        let lag = event.time - f.time
        let pair = SurfacePair(tabletX: f.x, tabletY: f.y, surfaceX: event.x, surfaceY: event.y, lag: lag,
                               frameTime: f.frame.sample.time)
        // Only a pair that fits the map says what the offset is: one off it was paired with the
        // wrong frame (an event stamped late), and its smaller lag would pull the window early.
        if link.map.map({ SurfaceMapFit.residual($0, pair) <= max(configuration.tolerance * $0.widthScale, 3 * link.rms) }) ?? true {
            lags.append(lag)
            if lags.count > configuration.lagMemory { lags.removeFirst(lags.count - configuration.lagMemory) }
            clockOffset = lags.min()
        }
        sources[event.source, default: SourcePen()].device = best.device
        add(pair, device: best.device, source: event.source, into: &out)
        releaseStrokes(force: false, into: &out)
    }

    /// Whether a search may run: at the end of input, or when the last found nothing, once
    /// `searchEvents` more app events came (`failedSearches`).
    func searchIsDue(final: Bool) -> Bool {
        final || failedSearches == 0 || eventsSinceSearch >= configuration.searchEvents
    }

    /// Finds the offset (when unknown) and the device of the first waiting events: for every
    /// remembered frame the first event could belong to, pairs the others under the lag that
    /// makes, fits a map to them and scores its residual. Decides only when the best fits within
    /// the tolerance and every other shift does not: on a straight, even motion a shifted pairing
    /// fits too (the offset absorbs it), and then it waits for more events.
    mutating func search(final: Bool) -> Bool {
        guard let anchor = pending.first else { return false }
        let events = pending.filter { $0.source == anchor.source }
        guard events.count >= configuration.searchEvents else { return false }
        eventsSinceSearch = 0
        if devices.values.allSatisfy({ $0.tooNarrow(forSpread: configuration.minimumSpread) }) {
            failedSearches += 1   // what the trials would decide, without them
            return false
        }
        struct Trial { var score: Double; var order: Int; var device: UInt32; var lags: [Double]; var spread: Double }
        var trials: [Trial] = []
        var pairs: [SurfacePair] = []
        pairs.reserveCapacity(events.count)
        for id in devices.keys.sorted() {
            let link = devices[id]!
            for anchorFrame in link.frames {
                let trialLag = anchor.time - anchorFrame.time
                if let known = clockOffset,
                   trialLag < known - configuration.timeSlack || trialLag > known + 1 + configuration.timeSlack { continue }
                pairs.removeAll(keepingCapacity: true)
                var lags: [Double] = []
                var missed = 0
                for event in events {
                    // The frame whose lag is nearest the anchor's; flooring moves each by < 1 ms.
                    var chosen: Int?
                    let lo = link.firstFrame(atOrAfter: event.time - trialLag - 1 - configuration.timeSlack)
                    var i = lo
                    while i < link.frames.count, link.frames[i].time <= event.time - trialLag + 1 + configuration.timeSlack {
                        if chosen == nil || abs(event.time - link.frames[i].time - trialLag)
                            < abs(event.time - link.frames[chosen!].time - trialLag) { chosen = i }
                        i += 1
                    }
                    guard let chosen else {
                        // Stamped late (an X server's time is when it read the report) or its
                        // report lost: left out, within `searchMisses` of the events.
                        missed += 1
                        if Double(missed) > Double(events.count) * configuration.searchMisses { break }
                        continue
                    }
                    let f = link.frames[chosen]
                    pairs.append(SurfacePair(tabletX: f.x, tabletY: f.y, surfaceX: event.x, surfaceY: event.y,
                                             lag: event.time - f.time, frameTime: f.frame.sample.time))
                    lags.append(event.time - f.time)
                }
                // Every complete pairing competes; only one with enough spread can win.
                guard Double(missed) <= Double(events.count) * configuration.searchMisses,
                      pairs.count >= configuration.searchEvents, let fit = SurfaceMapFit.fit(pairs[...]) else { continue }
                trials.append(Trial(score: fit.rms / max(fit.transform.widthScale, 1e-12), order: trials.count, device: id, lags: lags,
                                    spread: fit.spread))
            }
        }
        // Ties in the order tried, so that every implementation picks the same.
        trials.sort { ($0.score, $0.order) < ($1.score, $1.order) }
        guard let best = trials.first, best.score <= configuration.tolerance, best.spread >= configuration.minimumSpread,
              trials.count < 2 || trials[1].score > configuration.tolerance else {
            failedSearches += 1
            return false
        }
        failedSearches = 0
        clockOffset = best.lags.min()
        lags = best.lags
        sources[anchor.source, default: SourcePen()].device = best.device
        return true
    }
}
