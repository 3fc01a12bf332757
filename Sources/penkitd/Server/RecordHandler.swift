import Logging
import PenKit

/// `record` requests (docs/bug-reports.md): the flight recorder's window, sent to the asking
/// client as a backlog that drains as its socket takes it (as a `since` replay does), so a report
/// of many MiB never counts against `client-buffer-bytes`.
struct RecordHandler: Sendable {
    /// nil when the flight recorder is off.
    let recorder: FlightRecorder?
    let logger: Logger

    func handle(_ request: RecordRequest, from client: ClientConnection, _ state: HubState) {
        guard let recorder else {
            client.sendControl(ErrorMessage(code: .recordingUnavailable,
                                            message: "the flight recorder is off (`flight-recorder = 0` in penkitd's config)"))
            return
        }
        // Pen positions can be handwriting: fewer may read them than may draw with them.
        guard state.control.policies.recorders.allows(client.peer) else {
            logger.notice("refused a recording", metadata: ["client": "\(client.id)", "uid": "\(client.peer.uid)"])
            client.sendControl(ErrorMessage(code: .recordingUnavailable,
                                            message: "uid \(client.peer.uid) may not read the flight recorder: root, penkitd's user and the socket's group may"))
            return
        }
        let lines = recorder.report(window: request.seconds ?? recorder.seconds, now: recorder.now(), settings: state.control.settings)
        logger.info("recording sent", metadata: ["client": "\(client.id)", "lines": "\(lines.count)",
                                                 "seconds": "\(request.seconds ?? recorder.seconds)"])
        client.replay(lines.map { (seq: 0, line: .bytes($0 + [UInt8(ascii: "\n")])) })
    }
}
