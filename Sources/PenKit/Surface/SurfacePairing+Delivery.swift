/// What reaches the app: frames of a device whose pen a confirmed app source has over this
/// surface, mapped, and inside the surface when its size is known.
extension SurfacePairing {
    /// A source's pair fitted the ready map: its device's frames since the source's proximity-in
    /// are for this surface. Those penkit sent before the app's own events confirmed it are
    /// delivered now, in order, so the app's samples have no gap at the start; but none from
    /// before the current map held (the window may have moved in between).
    mutating func confirm(_ source: String, device id: UInt32, link: inout DeviceLink, into out: inout [SurfaceDelivery]) {
        guard var pen = sources[source], pen.inside, !pen.confirmed else { return }
        pen.confirmed = true
        pen.device = id
        sources[source] = pen
        guard let map = link.deliveryMap, let offset = clockOffset else { return }
        let entered = pen.enteredAt - offset - 1 - configuration.timeSlack
        let since = max(entered, Double(link.history.last?.from ?? 0) / 1000)
        for i in link.firstFrame(atOrAfter: since)..<link.frames.count {
            let frame = link.frames[i].frame
            guard frame.sample.time > link.lastDelivered else { continue }
            deliver(frame, map: map, link: &link, into: &out)
        }
    }

    mutating func deliverIfHere(_ frame: Frame, into out: inout [SurfaceDelivery]) {
        guard var link = devices[frame.device], let map = link.deliveryMap, hasPen(device: frame.device) else { return }
        deliver(frame, map: map, link: &link, into: &out)
        devices[frame.device] = link
    }

    private mutating func deliver(_ frame: Frame, map: AffineTransform, link: inout DeviceLink, into out: inout [SurfaceDelivery]) {
        let mapped = SurfaceMapping.frame(frame, map)
        if let width = surfaceWidth, let height = surfaceHeight,
           !(0...width).contains(mapped.sample.x) || !(0...height).contains(mapped.sample.y) { return }
        link.lastDelivered = frame.sample.time
        if let stroke = frame.stroke, owned.insert(stroke).inserted, let began = begans[stroke] {
            out.append(.began(began))
        }
        out.append(.frame(mapped))
    }
}
