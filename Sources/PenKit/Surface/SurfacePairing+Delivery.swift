/// What reaches the app: frames of a device whose pen a confirmed app source has over this
/// surface, mapped, inside the surface when its size is known, and no more than `lead` ms past
/// the app's own newest event (later ones wait for the app's events to vouch for them).
extension SurfacePairing {
    /// A source's pair fitted the ready map: its device's frames are for this surface, from the
    /// source's proximity-in (but none from before the current map held: the window may have
    /// moved in between) up to `lead` ms past the app's newest event. Frames penkit sent before
    /// the app's own events vouched for them are delivered now, in order, so the app's samples
    /// have no gap.
    mutating func catchUp(_ source: String, device id: UInt32, link: inout DeviceLink, until limit: Double? = nil,
                          into out: inout [SurfaceDelivery]) {
        guard var pen = sources[source], pen.inside else { return }
        pen.confirmed = true
        pen.device = id
        sources[source] = pen
        guard let map = link.deliveryMap, let offset = clockOffset else { return }
        let entered = pen.enteredAt - offset - 1 - configuration.timeSlack
        let since = max(entered, Double(link.history.last?.from ?? 0) / 1000, Double(link.lastDelivered) / 1000)
        let until = limit ?? (pen.lastTime - offset + configuration.lead)
        var i = link.firstFrame(atOrAfter: since)
        while i < link.frames.count, link.frames[i].time <= until {
            let frame = link.frames[i].frame
            if frame.sample.time > link.lastDelivered { deliver(frame, map: map, link: &link, into: &out) }
            i += 1
        }
    }

    mutating func deliverIfHere(_ frame: Frame, into out: inout [SurfaceDelivery]) {
        guard var link = devices[frame.device], let map = link.deliveryMap, hasPen(device: frame.device, at: Double(frame.sample.time) / 1000) else { return }
        deliver(frame, map: map, link: &link, into: &out)
        devices[frame.device] = link
    }

    private mutating func deliver(_ frame: Frame, map: AffineTransform, link: inout DeviceLink, into out: inout [SurfaceDelivery]) {
        let mapped = SurfaceMapping.frame(frame, map)
        if let width = surfaceWidth, let height = surfaceHeight,
           !(0...width).contains(mapped.sample.x) || !(0...height).contains(mapped.sample.y) { return }
        link.lastDelivered = frame.sample.time
        var waiting: [SampleUpdate] = []
        if let stroke = frame.stroke, owned.insert(stroke).inserted {
            if let began = begans[stroke] { out.append(.began(began)) }
            if waitingUpdates.contains(where: { $0.stroke == stroke }) {
                waiting = waitingUpdates.filter { $0.stroke == stroke }
                waitingUpdates.removeAll { $0.stroke == stroke }
            }
        }
        out.append(.frame(mapped))
        // The stroke's updates that came before it was here, after its first frame (an app matches
        // an update to its frame by updateIndex, and may get the update before the frame it refines).
        for update in waiting {
            var mapped = update
            mapped.sample = SurfaceMapping.sample(update.sample, map)
            out.append(.update(mapped))
        }
    }
}
