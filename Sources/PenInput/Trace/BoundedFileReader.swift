#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole file, but never more than a limit: a pipe's writer may never stop, and penkit
/// must say so instead of growing without bound. What is not a regular file or a pipe with its
/// writer there is refused at once (`TraceFileKind`).
enum BoundedFileReader {
    static func read(path: String, limit: Int) throws -> [UInt8] {
        // O_NONBLOCK: open(2) of a FIFO returns at once instead of waiting for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw TraceError(file: path, line: 0, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        if let refusal = TraceFileKind.refusal(fd, first: &bytes) { throw TraceError(file: path, line: 0, message: refusal) }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 {
            bytes.reserveCapacity(min(Int(st.st_size), limit) + 1)
        }
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
}
