import Logging
import PenEngine
import PenKit

/// The producer role: a peer allowed by `pressure-sources` declares itself a device's
/// pressure source, then streams readings; each is checked and posted to the input thread
/// (`ControlQueue`). Any misbehaviour ends that source alone, and its device falls back to
/// in-band pressure (the input thread announces it to readers).
struct PressureSourceHandler: Sendable {
    /// Where readings go; nil while penkitd cannot take sources (an unpaced replay, whose times
    /// are not on a real clock).
    let inputControl: ControlQueue?
    let logger: Logger

    func declare(_ parsed: Result<PressureSourceRequest, ErrorMessage>, from client: ClientConnection, _ state: inout HubState) {
        guard let inputControl else {
            return client.close(lastLine: ErrorMessage(code: .sourceUnavailable, message: "pressure sources need live input "
                + "or a --realtime replay (an unpaced replay's times are not on the clock readings use)", fatal: true),
                                now: MonotonicClock.now())
        }
        guard state.control.policies.pressureSources.allows(client.peer) else {
            logger.warning("refused a pressure source", metadata: ["client": "\(client.id)", "uid": "\(client.peer.uid)"])
            return client.close(lastLine: ErrorMessage(code: .refused, message: "uid \(client.peer.uid) is not allowed to be a "
                + "pressure source (pressure-sources in penkitd.conf)", fatal: true), now: MonotonicClock.now())
        }
        let request: PressureSourceRequest
        switch parsed {
        case .success(let parsed): request = parsed
        case .failure(let error): return client.close(lastLine: error, now: MonotonicClock.now())
        }
        guard state.control.sources[request.device] == nil else {
            return client.close(lastLine: ErrorMessage(code: .sourceBusy, message: "device \(request.device) already has a "
                + "pressure source", fatal: true), now: MonotonicClock.now())
        }
        state.control.sources[request.device] = client.fd
        client.pressureSource = PressureSourceSession(device: request.device, now: MonotonicClock.now())
        inputControl.post(.attach(device: UInt32(request.device), PressureSourceAttachment(
            serial: request.serial, latency: request.latency, jitter: request.jitter)))
        client.sendControl(PressureSourceMessage.attached(request))
        logger.info("pressure source attached", metadata: ["client": "\(client.id)", "device": "\(request.device)",
                                                          "latency": "\(request.latency)", "jitter": "\(request.jitter)"])
    }

    /// One line from a declared source: a reading, or the end of the source.
    func reading(_ line: [UInt8], from client: ClientConnection, _ state: inout HubState) {
        guard let inputControl, let device = client.pressureSource?.device else { return }
        let now = MonotonicClock.now()
        let reading: PressureReading
        switch PressureReading.parse(line) {
        case .success(let parsed): reading = parsed
        case .failure(let error): return end(client, error, &state)
        }
        if let error = client.pressureSource?.check(reading, now: now) { return end(client, error, &state) }
        let report = PressureReport(device: UInt32(device), time: reading.time, pressure: reading.force)
        guard inputControl.post(.reading(report, arrival: now)) else {
            return end(client, ErrorMessage(code: .flood, message: "penkitd cannot take readings this fast; device "
                + "\(device) falls back to in-band pressure", fatal: true), &state)
        }
    }

    private func end(_ client: ClientConnection, _ error: ErrorMessage, _ state: inout HubState) {
        logger.warning("pressure source cut off", metadata: ["client": "\(client.id)", "code": "\(error.code.rawValue)"])
        client.close(lastLine: error, now: MonotonicClock.now())
        detach(client, reason: error.message, &state)
    }

    /// The client stops being a source (once): its device falls back to in-band pressure.
    func detach(_ client: ClientConnection, reason: String, _ state: inout HubState) {
        guard let device = client.pressureSource?.device else { return }
        client.pressureSource = nil
        state.control.sources[device] = nil
        inputControl?.post(.detach(device: UInt32(device), reason: reason))
        logger.info("pressure source detached", metadata: ["client": "\(client.id)", "device": "\(device)", "reason": "\(reason)"])
    }
}
