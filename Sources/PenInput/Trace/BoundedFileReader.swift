#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole file, but never more than a limit: a trace path may name a FIFO or a device
/// that never ends, and penkit must say so instead of growing without bound. A FIFO is waited
/// on for a writer at most `writerWait`: a pipe (`<(cat trace)`) has one at once, and a named
/// FIFO nobody opens must not hold penkit forever.
enum BoundedFileReader {
    static func read(path: String, limit: Int, writerWait: Duration) throws -> [UInt8] {
        // O_NONBLOCK: open(2) of a FIFO returns at once instead of waiting for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw TraceError(file: path, line: 0, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var st = stat()
        let known = fstat(fd, &st) == 0
        if known && (st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 {
            bytes.reserveCapacity(min(Int(st.st_size), limit) + 1)
        }
        if known && (st.st_mode & S_IFMT) == S_IFIFO { try awaitWriter(fd, path: path, within: writerWait) }
        // Blocking reads from here on: a writer exists, and one that is slow is waited for.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TraceError(file: path, line: 0, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit {
                throw TraceError(file: path, line: 0,
                                 message: "larger than \(limit >> 20) MiB, the most penkit reads (an endless file or not a trace); stopped reading there")
            }
        }
    }

    /// Returns once the FIFO has had a writer: Linux reports nothing on a FIFO opened
    /// non-blocking that never had one (not even POLLHUP), then POLLIN once bytes are written,
    /// or POLLHUP once a writer has come and gone.
    private static func awaitWriter(_ fd: Int32, path: String, within wait: Duration) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            let left = clock.now.duration(to: deadline)
            if left <= .zero {
                throw TraceError(file: path, line: 0, message: "no writer opened the FIFO within \(seconds(wait)) s")
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(left / .milliseconds(1), 60_000).rounded(.up)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw TraceError(file: path, line: 0, message: "cannot read: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// "10" or "0.3": whole seconds without a fraction.
    private static func seconds(_ d: Duration) -> String {
        let value = d / .seconds(1)
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
