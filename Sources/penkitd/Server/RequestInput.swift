import Glibc
import PenKit

/// The request side of a client's socket: the bytes read and not yet handled, and whether
/// reading is paused (replies would only pile up) or over (the client half-closed).
struct RequestInput {
    /// Request bytes read and not yet handled.
    var bytes: [UInt8] = []
    private(set) var paused = false
    private(set) var ended = false

    enum ReadOutcome {
        /// Everything available was read; more may come.
        case open
        /// The client sends no more requests (half-close) but may still read.
        case ended
        /// The socket failed.
        case failed
    }

    /// Reads what the client sent, without waiting; stops early past two maximal lines, which
    /// the router then refuses.
    mutating func read(from fd: Int32) -> ReadOutcome {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                bytes.append(contentsOf: chunk[..<n])
                if bytes.count > PenProtocol.maxLineBytes * 2 { return .open }
                continue
            }
            if n == 0 {
                ended = true
                return .ended
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .open
            default: return .failed
            }
        }
    }

    /// The control plane handled the bytes before `end`.
    mutating func consume(upTo end: Int) {
        bytes.removeSubrange(..<min(end, bytes.endIndex))
    }

    mutating func pause() { paused = true }
    mutating func resume() { paused = false }
}
