import PenEngine
import PenKit

/// The producer role: a peer allowed by `pressure-sources` declares itself a device's
/// pressure source, then streams readings; the hub checks each one and hands it to the
/// input thread. Any misbehaviour ends that source alone, and its device falls back to
/// in-band pressure (the input thread announces it to readers).
extension Hub {
    func declareSource(_ client: ClientConnection, _ line: [UInt8], _ state: inout HubState) {
        guard let inbox = pressureInbox else {
            return client.close(lastLine: ErrorMessage(code: .sourceUnavailable, message: "pressure sources need live input "
                + "or a --realtime replay (an unpaced replay's times are not on the clock readings use)", fatal: true),
                                now: MonotonicClock.now())
        }
        guard state.sourcePolicy.allows(client.peer) else {
            logger.warning("refused a pressure source", metadata: ["client": "\(client.id)", "uid": "\(client.peer.uid)"])
            return client.close(lastLine: ErrorMessage(code: .refused, message: "uid \(client.peer.uid) is not allowed to be a "
                + "pressure source (pressure-sources in penkitd.conf)", fatal: true), now: MonotonicClock.now())
        }
        let request: PressureSourceRequest
        switch PressureSourceRequest.parse(line) {
        case .success(let parsed): request = parsed
        case .failure(let error): return client.close(lastLine: error, now: MonotonicClock.now())
        }
        guard state.sources[request.device] == nil else {
            return client.close(lastLine: ErrorMessage(code: .sourceBusy, message: "device \(request.device) already has a "
                + "pressure source", fatal: true), now: MonotonicClock.now())
        }
        state.sources[request.device] = client.fd
        client.pressureSource = PressureSourceSession(device: request.device, now: MonotonicClock.now())
        inbox.post(.attach(device: UInt32(request.device), PressureSourceAttachment(
            serial: request.serial, latency: request.latency, jitter: request.jitter)))
        client.sendControl(PressureSourceMessage.attached(request))
        logger.info("pressure source attached", metadata: ["client": "\(client.id)", "device": "\(request.device)",
                                                          "latency": "\(request.latency)", "jitter": "\(request.jitter)"])
    }

    func pressureReading(_ client: ClientConnection, _ line: [UInt8], _ state: inout HubState) {
        guard let inbox = pressureInbox, let device = client.pressureSource?.device else { return }
        let now = MonotonicClock.now()
        let reading: PressureReading
        switch PressureReading.parse(line) {
        case .success(let parsed): reading = parsed
        case .failure(let error): return endSource(client, error, &state)
        }
        if let error = client.pressureSource?.check(reading, now: now) { return endSource(client, error, &state) }
        let report = PressureReport(device: UInt32(device), time: reading.time, pressure: reading.force)
        guard inbox.post(.reading(report, arrival: now)) else {
            return endSource(client, ErrorMessage(code: .flood, message: "penkitd cannot take readings this fast; device "
                + "\(device) falls back to in-band pressure", fatal: true), &state)
        }
    }

    private func endSource(_ client: ClientConnection, _ error: ErrorMessage, _ state: inout HubState) {
        logger.warning("pressure source cut off", metadata: ["client": "\(client.id)", "code": "\(error.code.rawValue)"])
        client.close(lastLine: error, now: MonotonicClock.now())
        detachSource(client, reason: error.message, &state)
    }

    /// The client stops being a source (once): its device falls back to in-band pressure.
    func detachSource(_ client: ClientConnection, reason: String, _ state: inout HubState) {
        guard let device = client.pressureSource?.device else { return }
        client.pressureSource = nil
        state.sources[device] = nil
        pressureInbox?.post(.detach(device: UInt32(device), reason: reason))
        logger.info("pressure source detached", metadata: ["client": "\(client.id)", "device": "\(device)", "reason": "\(reason)"])
    }
}
