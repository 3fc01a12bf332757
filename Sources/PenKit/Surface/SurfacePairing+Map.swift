/// Each new pair either agrees with the device's map (and refines it), or is held as a suspect:
/// one suspect followed by agreement was a glitch; suspects that one common offset fits are a
/// moved window; three that fit no offset are a new mapping, fitted from scratch.
extension SurfacePairing {
    mutating func add(_ pair: SurfacePair, device id: UInt32, source: String, into out: inout [SurfaceDelivery]) {
        var link = devices[id]!
        defer { devices[id] = link }
        guard let map = link.map else {
            link.pairs.append(pair)
            if link.pairs.count > configuration.pairWindow { link.pairs.removeFirst(link.pairs.count - configuration.pairWindow) }
            refit(&link, device: id, into: &out)
            if link.ready { catchUp(source, device: id, link: &link, into: &out) }
            return
        }
        let tolerance = configuration.tolerance * map.widthScale
        if SurfaceMapFit.residual(map, pair) <= max(tolerance, 3 * link.rms) {
            link.suspects.removeAll()
            link.pairs.append(pair)
            if link.pairs.count > configuration.pairWindow { link.pairs.removeFirst(link.pairs.count - configuration.pairWindow) }
            refit(&link, device: id, into: &out)
            if link.ready { catchUp(source, device: id, link: &link, into: &out) }
            return
        }
        link.suspects.append(pair)
        sources[source]?.confirmed = false
        guard link.suspects.count >= 2 else { return }
        let moved = SurfaceMapFit.translated(map, to: link.suspects[...])
        if link.suspects.allSatisfy({ SurfaceMapFit.residual(moved, $0) <= tolerance }) {
            // It moved after the last report that still fitted: reports in between had no app event.
            let movedAt = link.pairs.last.map { $0.frameTime + 1 } ?? link.suspects[0].frameTime
            link.pairs = link.suspects
            link.suspects.removeAll()
            link.map = moved
            link.rms = SurfaceMapFit.rmsResidual(moved, link.pairs[...])
            if link.ready {
                link.recordMap(moved, from: movedAt, newSegment: true)
                out.append(.map(estimate(link, device: id, change: .moved)))
                catchUp(source, device: id, link: &link, into: &out)
            }
        } else if link.suspects.count >= 3 {
            let wasReady = link.ready
            link.pairs = link.suspects
            link.suspects.removeAll()
            link.map = nil
            link.ready = false
            link.linearError = .infinity
            link.history.removeAll()
            if wasReady, let lost = SurfaceMapFit.fit(link.pairs[...]) {
                out.append(.map(SurfaceMapEstimate(device: id, transform: lost.transform, ready: false, change: .lost,
                                                   pairs: link.pairs.count, rms: lost.rms,
                                                   clockOffset: clockOffset ?? 0, appEvents: appEvents)))
            }
            refit(&link, device: id, into: &out)
        }
    }

    /// A full fit when it is known well enough `reach` mm around the pairs (the test for readiness)
    /// and, once ready, at least as well as the linear part in use; else (once ready) the offset
    /// alone under the known linear part: after a move, a few pairs cannot tell a rotation as well
    /// as the many before it did, but can tell an offset.
    mutating func refit(_ link: inout DeviceLink, device id: UInt32, into out: inout [SurfaceDelivery]) {
        var window = link.pairs.suffix(configuration.pairWindow)
        if !link.ready, window.count >= configuration.minimumPairs, let first = SurfaceMapFit.fit(window),
           case let limit = configuration.tolerance * first.transform.widthScale, first.rms > limit {
            // Before a map, an event stamped late may have been paired with another frame: where
            // most pairs lie within the tolerance of their fit, the others are dropped as such.
            let kept = window.filter { SurfaceMapFit.residual(first.transform, $0) <= limit }
            if kept.count >= configuration.minimumPairs, 4 * kept.count >= 3 * window.count {
                link.pairs = kept
                window = link.pairs[...]
            }
        }
        // Only a fit over enough spread pairs is a map: three pairs always fit exactly, however wrong.
        if window.count >= configuration.minimumPairs, let fit = SurfaceMapFit.fit(window),
           fit.spread >= configuration.minimumSpread, fit.rms <= configuration.tolerance * fit.transform.widthScale,
           case let error = fit.standardError(reach: configuration.reach),
           error <= max(configuration.accuracy, fit.rms) / 3, !link.ready || error <= link.linearError {
            link.map = fit.transform
            link.rms = fit.rms
            link.linearError = error
            if !link.ready {
                link.ready = true
                link.recordMap(fit.transform, from: window.first!.frameTime, newSegment: true)
                out.append(.map(estimate(link, device: id, change: .ready)))
            } else if link.ready {
                link.recordMap(fit.transform, from: window.first!.frameTime, newSegment: false)
            }
        } else if link.ready, let map = link.map {
            let moved = SurfaceMapFit.translated(map, to: window)
            link.map = moved
            link.rms = SurfaceMapFit.rmsResidual(moved, window)
            link.recordMap(moved, from: window.first!.frameTime, newSegment: false)
        }
    }

    func estimate(_ link: DeviceLink, device: UInt32, change: SurfaceMapEstimate.Change) -> SurfaceMapEstimate {
        SurfaceMapEstimate(device: device, transform: link.map ?? .identity, ready: link.ready, change: change,
                           pairs: link.pairs.count, rms: link.rms, clockOffset: clockOffset ?? 0, appEvents: appEvents)
    }
}
