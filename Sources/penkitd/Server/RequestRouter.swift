import Logging
import PenKit

/// The control plane's entry: takes a client's complete request lines, parses each once into a
/// `ClientRequest` and hands it to the one handler for it. A declared pressure source's lines
/// are readings, not requests, and go to its handler as they are.
struct RequestRouter: Sendable {
    let subscribe: SubscribeHandler
    let pressureSources: PressureSourceHandler
    let status: StatusHandler
    let record: RecordHandler
    let settings: SettingsHandler
    let logger: Logger

    /// Handles complete request lines. A line over 64 KiB is fatal for that client; any other
    /// bad line gets an error and the connection stays usable. While the client does not read
    /// its replies, its requests are not read either, so they cannot pile up in penkitd.
    func handleLines(of client: ClientConnection, _ state: inout HubState) {
        guard !client.closing else { return }
        // Lines are taken from the front by index and the handled prefix removed once on the
        // way out: removing each line as it is handled is quadratic in a burst of many lines.
        var start = client.requests.bytes.startIndex
        defer { client.requests.consume(upTo: start) }
        while let newline = client.requests.bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > PenProtocol.maxLineBytes { break }
            // A settings change being written: the client's next requests wait for its answer.
            guard client.writable, !state.control.settingsPending.contains(client.id) else {
                client.pauseReading()
                return
            }
            var line = Array(client.requests.bytes[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.isEmpty { continue }
            if client.pressureSource != nil {
                pressureSources.reading(line, from: client, &state)
            } else {
                route(ClientRequest.parse(line), from: client, &state)
            }
            if client.closing { return }
        }
        if client.requests.paused { client.resumeReading() }
        if client.requests.bytes.count - start > PenProtocol.maxLineBytes {
            client.close(lastLine: ErrorMessage(code: .lineTooLong,
                                                message: "request lines are limited to \(PenProtocol.maxLineBytes) bytes",
                                                fatal: true), now: MonotonicClock.now())
            client.requests.consume(upTo: client.requests.bytes.endIndex)
            start = 0
        }
    }

    private func route(_ request: ClientRequest, from client: ClientConnection, _ state: inout HubState) {
        switch request {
        case .subscribe(let request): subscribe.handle(request, from: client, &state)
        case .pressureSource(let parsed): pressureSources.declare(parsed, from: client, &state)
        case .status: status.handle(client, state)
        case .record(let request): record.handle(request, from: client, state)
        case .settings(let request): settings.check(request, from: client, &state)
        case .invalid(let error):
            logger.debug("bad client line", metadata: ["client": "\(client.id)", "code": "\(error.code.rawValue)"])
            client.sendControl(error)
        }
    }
}
