import PenKit

/// When a client's connection ends. `close` gives a grace to read the last line; a stopping
/// server's `shutdown` first gives a grace to take the strokes still queued, then closes.
struct CloseSchedule {
    /// Set once closing began: only what is pending, then the last line, still goes out.
    private(set) var closing = false
    /// When a closing client is closed even if it has not read its last line (CLOCK_MONOTONIC µs).
    private var closeDeadline: UInt64 = .max
    /// Set once shutdown began: the line that ends the connection once every queued stroke is out.
    private(set) var pendingShutdown: ShutdownMessage?
    private var shutdownDeadline: UInt64 = .max

    enum Due {
        case nothing
        /// The closing client's grace ran out: it is closed whether or not it read its last line.
        case close
        /// The client did not take its strokes before the shutdown grace ran out: it is cut off.
        case cutOff
    }

    /// Closing begins, with the last line already handed to the socket.
    mutating func close(by deadline: UInt64) {
        closing = true
        closeDeadline = deadline
    }

    /// An already closing client gets the shorter of the two graces (a stopping server does not
    /// wait out an overflowed client's 30 s).
    mutating func shorten(to deadline: UInt64) {
        closeDeadline = min(closeDeadline, deadline)
    }

    mutating func shutdown(_ message: ShutdownMessage, by deadline: UInt64) {
        pendingShutdown = message
        shutdownDeadline = deadline
    }

    func due(at now: UInt64) -> Due {
        if closing { return now >= closeDeadline ? .close : .nothing }
        return pendingShutdown != nil && now >= shutdownDeadline ? .cutOff : .nothing
    }

    /// The next time something is due.
    var nextDeadline: UInt64 {
        if closing { return closeDeadline }
        return pendingShutdown != nil ? shutdownDeadline : .max
    }
}
