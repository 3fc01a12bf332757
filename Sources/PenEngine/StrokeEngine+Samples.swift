import PenKit

extension StrokeEngine {
    /// Turns one event into a sample, records what it expects, and sends its frame.
    mutating func emitSample(_ event: TabletEvent, key: ToolKey, contact: Bool, into out: inout [EngineMessage]) {
        guard let state = tools[key] else { return }
        let strokeID = contact ? state.activeStroke : nil
        let feel = configuration.feel(for: key.tool)
        // Beyond the hover cut-off nothing is sent: the frame, its prediction and its tilt wait.
        if strokeID == nil, event.toolAxes.contains(.distance), feel.isBeyondHoverCutoff(event.axes.distance) { return }
        let source = pressureSources[key.device].flatMap { $0.covers(key.tool) ? $0 : nil }
        // Static, given what it reads: as a method of the engine called from this mutating one,
        // the compiler copied the whole engine (every collection retained and released) per event.
        var sample = Self.makeSample(event, state: state, stroke: strokeID.flatMap { strokes[$0] }, feel: feel,
                                     source: source, configuration: configuration)
        let mapping = configuration.mappings[key.device]
        if let point = mapping?.outputPoint(x: sample.x, y: sample.y) { (sample.outputX, sample.outputY) = point }
        if !sample.expectingUpdates.isEmpty {
            sample.updateIndex = nextUpdateIndex
            nextUpdateIndex += 1
        }
        var predicted: [Sample] = []
        if let id = strokeID, strokes[id] != nil {
            let limit = configuration.maxSamplesPerStroke
            let kept = withStroke(id) { stroke -> Int? in
                guard stroke.samples.count < limit else { return nil }
                stroke.samples.append(sample)
                if !sample.expectingUpdates.isEmpty { stroke.pending += 1 }
                return stroke.samples.count - 1
            } ?? nil
            if let index = kept {
                if sample.expectingUpdates.contains(.force) {
                    let updateTimeout = configuration.updateTimeout.wholeMicroseconds
                    let deadline = source?.deadline(after: sample.time, updateTimeout: updateTimeout)
                        ?? sample.time.saturatingAdd(updateTimeout)
                    pendingForce.append(PendingForce(device: key.device, stroke: id, index: index, time: sample.time,
                                                     deadline: deadline))
                }
                if sample.expectingUpdates.contains(.azimuth) {
                    tools[key]?.awaitingTilt.append(.stroke(id: id, index: index))
                }
            } else {
                // Not kept, so nothing could deliver its update: say so now.
                droppedSamples += 1
                sample.expectingUpdates = []
            }
            predicted = prediction?.predict(after: sample, touching: true) ?? []
        } else {
            if sample.expectingUpdates.contains(.azimuth) {
                if state.awaitingTilt.count >= configuration.maxHoverSamplesAwaitingTilt {
                    concludeNoTilt(key, into: &out)
                    sample.expectingUpdates.subtract([.azimuth, .altitude])
                } else {
                    tools[key]?.awaitingTilt.append(.hover(sample))
                }
            }
            predicted = prediction?.predict(after: sample, touching: false) ?? []
        }
        if let mapping, mapping.output != nil {
            for i in predicted.indices {
                if let point = mapping.outputPoint(x: predicted[i].x, y: predicted[i].y) {
                    (predicted[i].outputX, predicted[i].outputY) = point
                }
            }
        }
        // Optional chaining in place: `prediction != nil` and a computed property read through the
        // optional each made a copy of the whole prediction stage per event.
        let confidence = predicted.isEmpty ? nil : prediction?.confidence
        out.append(.frame(Frame(tool: key.tool, stroke: strokeID, sample: sample, predicted: predicted,
                                expectedError: confidence?.expectedError,
                                liftProbability: confidence?.liftProbability,
                                device: key.device)))
    }

    static func makeSample(_ event: TabletEvent, state: ToolState, stroke: StrokeState?, feel: PenFeel,
                           source: PressureSourceAttachment?, configuration: EngineConfiguration) -> Sample {
        let axes = event.axes
        var estimated: SampleProperties = []
        var expecting: SampleProperties = []

        var angles = TiltConversion.upright
        switch state.tilt {
        case .measured:
            angles = TiltConversion.azimuthAltitude(tiltX: axes.tiltX, tiltY: axes.tiltY)
        case .unknown:
            estimated.formUnion([.azimuth, .altitude])
            expecting.formUnion([.azimuth, .altitude])
        case .absent, .unsupported:
            estimated.formUnion([.azimuth, .altitude])
        }

        var roll = 0.0
        if event.toolAxes.contains(.rotation) {
            roll = axes.rotation * Double.pi / 180
            roll -= 2 * Double.pi * (roll / (2 * Double.pi)).rounded(.down)
        } else {
            estimated.insert(.roll)
        }

        var force = 0.0
        var rawForce: Double?
        if let stroke, source != nil {
            // An attached source will send the real value; meanwhile the tablet's own
            // pressure is the best estimate, else the stroke's (or tool's) last reading.
            if event.toolAxes.contains(.pressure) {
                force = feel.force(fromRaw: axes.pressure)
                if feel.shapesPressure { rawForce = axes.pressure }
            } else {
                force = stroke.lastMeasuredForce ?? state.lastMeasuredForce ?? configuration.defaultForce
            }
            estimated.insert(.force)
            expecting.insert(.force)
        } else if let stroke {
            switch configuration.pressureSource {
            case .inBand:
                if event.toolAxes.contains(.pressure) {
                    force = feel.force(fromRaw: axes.pressure)
                    if feel.shapesPressure { rawForce = axes.pressure }
                } else {
                    force = configuration.defaultForce
                    estimated.insert(.force)
                }
            case .separate:
                force = stroke.lastMeasuredForce ?? state.lastMeasuredForce ?? configuration.defaultForce
                estimated.insert(.force)
                expecting.insert(.force)
            }
        }

        let distance = stroke == nil && event.toolAxes.contains(.distance) ? axes.distance : 0
        return Sample(time: event.time, x: axes.x, y: axes.y, force: force, azimuth: angles.azimuth,
                      altitude: angles.altitude, roll: roll, distance: distance,
                      estimated: estimated, expectingUpdates: expecting, rawForce: rawForce)
    }
}
