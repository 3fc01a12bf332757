import PenKit

/// How an expectation ends.
enum Resolution {
    /// The real value for this very sample arrived: it stops being an estimate.
    case measured
    /// A better value from a nearby sample replaced it (tilt backfill): still an estimate.
    case backfilled
    /// No update is coming: the estimate stays.
    case expired
}

extension StrokeEngine {
    /// Ends the expectation of `properties` for one stroke sample and sends the update.
    mutating func resolve(stroke id: UInt64, index: Int, properties: SampleProperties, how: Resolution,
                          into out: inout [EngineMessage], apply: (inout Sample) -> Void) {
        let settled = withStroke(id) { stroke -> (Sample, SampleProperties)? in
            guard index < stroke.samples.count else { return nil }
            let resolved = stroke.samples[index].expectingUpdates.intersection(properties)
            guard !resolved.isEmpty else { return nil }
            Self.resolve(&stroke.samples[index], resolved, how: how, apply: apply)
            if stroke.samples[index].expectingUpdates.isEmpty { stroke.pending -= 1 }
            return (stroke.samples[index], resolved)
        }
        guard let (sample, resolved) = settled ?? nil, let device = strokes[id]?.key.device else { return }
        out.append(.update(Self.update(stroke: id, sample: sample, resolved, how: how, device: device)))
    }

    mutating func resolve(stroke id: UInt64, index: Int, properties: SampleProperties, measured: Bool,
                          into out: inout [EngineMessage], apply: (inout Sample) -> Void) {
        resolve(stroke: id, index: index, properties: properties, how: measured ? .measured : .expired,
                into: &out, apply: apply)
    }

    static func resolve(_ sample: inout Sample, _ resolved: SampleProperties, how: Resolution,
                        apply: (inout Sample) -> Void) {
        if how != .expired { apply(&sample) }
        if how == .measured { sample.estimated.subtract(resolved) }
        sample.expectingUpdates.subtract(resolved)
    }

    static func update(stroke: UInt64?, sample: Sample, _ resolved: SampleProperties, how: Resolution,
                       device: UInt32) -> SampleUpdate {
        SampleUpdate(stroke: stroke, updateIndex: sample.updateIndex ?? 0,
                     updated: how == .expired ? [] : resolved,
                     expired: how == .expired ? resolved : [], sample: sample, device: device)
    }

    /// Tilt changed for the first time in this proximity: it is real from now on,
    /// and the samples that waited for it get its angles.
    mutating func noteTilt(_ event: TabletEvent, key: ToolKey, into out: inout [EngineMessage]) {
        guard !event.changedAxes.isDisjoint(with: [.tiltX, .tiltY]), let state = tools[key] else { return }
        switch state.tilt {
        case .unknown: unknownTiltTools -= 1
        case .absent: toolsWithoutTilt.remove(key)
        case .measured, .unsupported: return
        }
        tools[key]?.tilt = .measured
        let angles = TiltConversion.azimuthAltitude(tiltX: event.axes.tiltX, tiltY: event.axes.tiltY)
        settleAwaitingTilt(key, how: .backfilled, angles: angles, into: &out)
    }

    /// A whole `tiltTimeout` without tilt: none is coming for this tool.
    mutating func concludeNoTilt(_ key: ToolKey, into out: inout [EngineMessage]) {
        guard let state = tools[key] else { return }
        if case .unknown = state.tilt { unknownTiltTools -= 1 }
        tools[key]?.tilt = .absent
        if !toolsWithoutTilt.contains(key) { toolsWithoutTilt.insert(key) }
        expireAwaitingTilt(key, into: &out)
    }

    mutating func expireAwaitingTilt(_ key: ToolKey, into out: inout [EngineMessage]) {
        settleAwaitingTilt(key, how: .expired, angles: TiltConversion.upright, into: &out)
    }

    private mutating func settleAwaitingTilt(_ key: ToolKey, how: Resolution, angles: (azimuth: Double, altitude: Double),
                                             into out: inout [EngineMessage]) {
        guard let waiting = tools[key]?.awaitingTilt, !waiting.isEmpty else { return }
        tools[key]?.awaitingTilt = []
        let apply: (inout Sample) -> Void = { s in
            s.azimuth = angles.azimuth
            s.altitude = angles.altitude
        }
        for ref in waiting {
            switch ref {
            case .stroke(let id, let index):
                resolve(stroke: id, index: index, properties: [.azimuth, .altitude], how: how, into: &out, apply: apply)
            case .hover(var sample):
                let resolved = sample.expectingUpdates.intersection([.azimuth, .altitude])
                guard !resolved.isEmpty else { continue }
                Self.resolve(&sample, resolved, how: how, apply: apply)
                out.append(.update(Self.update(stroke: nil, sample: sample, resolved, how: how, device: key.device)))
            }
        }
    }
}
