/// `{"type":"error","code":"…","message":"…","fatal":bool}`. A fatal error is the
/// last line before the server closes the connection.
public struct ErrorMessage: Sendable, Hashable, Error, WireMessage {
    public enum Code: String, Sendable, Hashable {
        /// The line is not a JSON object.
        case malformed
        /// The line exceeds PenProtocol.maxLineBytes; fatal.
        case lineTooLong = "line_too_long"
        /// `subscribe` named a version this server does not speak.
        case unsupportedVersion = "unsupported_version"
        /// A request type or channel the server does not know.
        case unknownRequest = "unknown_request"
        /// The peer's uid/gid is not allowed; fatal.
        case refused
        /// The client fell too far behind on strokes; fatal. Reconnect with `since`.
        case overflow
        /// `since` reaches back before the oldest stroke the history still holds.
        case historyGap = "history_gap"
        /// The server already serves `max-clients` connections; fatal.
        case tooManyClients = "too_many_clients"
        /// Pressure sources: a force outside 0…1, or a stated latency/jitter beyond 10 s; fatal.
        case outOfRange = "out_of_range"
        /// A reading stamped later than it arrived; fatal.
        case timeInFuture = "time_in_future"
        /// A reading stamped before the source's previous one; fatal.
        case timeBackwards = "time_backwards"
        /// More readings than a pen can produce (docs/protocol.md); fatal.
        case flood
        /// The device already has a pressure source; fatal.
        case sourceBusy = "source_busy"
        /// penkitd cannot take a pressure source now (an unpaced replay has no real clock); fatal.
        case sourceUnavailable = "source_unavailable"
        /// `record`: the flight recorder is off, or this peer may not read it (root, penkitd's own
        /// user and the socket's group may); not fatal.
        case recordingUnavailable = "recording_unavailable"
        /// `settings`: this peer may not change settings (root, penkitd's own user and the
        /// `penkit-admin` group may), or penkitd has no state directory to keep them in; not fatal.
        case settingsRefused = "settings_refused"
        /// `settings`: a key penkitd does not know or a value it does not take; nothing was
        /// changed; not fatal.
        case invalidSetting = "invalid_setting"
    }

    public var code: Code
    public var message: String
    public var fatal: Bool
    /// For `overflow`: the last stroke sequence number the client was sent.
    public var lastSentSeq: UInt64?

    public init(code: Code, message: String, fatal: Bool = false, lastSentSeq: UInt64? = nil) {
        self.code = code
        self.message = message
        self.fatal = fatal
        self.lastSentSeq = lastSentSeq
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "error")
        w.field("code", plain: code.rawValue)
        w.field("message", string: message)
        w.field("fatal", fatal)
        if let lastSentSeq { w.field("lastSentSeq", lastSentSeq) }
        w.raw("}")
    }
}
