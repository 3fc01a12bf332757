import Glibc

/// Reads a whole file without ever blocking for more than 25 ms at a time: a slow pipe writer
/// must not keep penkitd from stopping. Reads once, so a process substitution
/// (`--replay <(cat trace)`) is read exactly once.
enum InterruptibleRead {
    enum Failure: Error {
        case open(Int32), read(Int32), tooLarge, stopped, refused(String)
    }

    /// `refusal` looks at the opened file first (a trace's `TraceFileKind.refusal`: a FIFO nobody
    /// writes to is refused at once, and the bytes it took to tell are kept).
    static func read(path: String, limit: Int, isStopping: () -> Bool,
                     refusal: (Int32, inout [UInt8]) -> String? = { _, _ in nil }) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: open(2) of a FIFO returns at once instead of waiting for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .open(errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        if let reason = refusal(fd, &bytes) { throw .refused(reason) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if isStopping() { throw .stopped }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 25)
            if ready < 0, errno != EINTR { throw .read(errno) }
            if ready < 0 { continue }
            // On a timeout, read anyway (EAGAIN while a writer is there): poll never reports the
            // end of a FIFO whose writer left before it was opened here (Linux raises POLLHUP only
            // for a writer that came after the open), and another reader may be keeping its pipe.
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .read(errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge }
        }
    }
}
