#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a trace path opened with O_NONBLOCK names, decided at once: penkit reads a trace from a
/// regular file, or from a pipe or FIFO whose writer is already there (`<(cat trace)`). Anything
/// else is refused by name before a byte is waited for: a FIFO nobody writes to would hold the
/// reader until a writer came, and a device or a directory is no trace.
package enum TraceFileKind {
    /// nil when the file can be read; else why not, to follow the path and a colon.
    /// A pipe's first bytes, which telling a writer apart took, are left in `first`.
    package static func refusal(_ fd: Int32, first: inout [UInt8]) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot be examined: \(String(cString: strerror(errno)))" }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return nil
        case S_IFIFO:
            // Non-blocking, a FIFO's read says at once whether a writer is there: bytes, or EAGAIN
            // while it has not written yet; 0 (end of file) when nobody has it open for writing.
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { first.append(contentsOf: chunk[0..<n]); return nil }
                if n < 0, errno == EINTR { continue }
                if n < 0, errno == EAGAIN { return nil }
                if n < 0 { return "cannot be read: \(String(cString: strerror(errno)))" }
                return "a FIFO with no writer: penkit reads a trace from a file, or from a pipe whose writer is already running (<(cat trace))"
            }
        case S_IFDIR: return "not a regular file (a directory)"
        case S_IFCHR: return "not a regular file (a character device)"
        case S_IFBLK: return "not a regular file (a block device)"
        case S_IFSOCK: return "not a regular file (a socket)"
        default: return "not a regular file"
        }
    }
}
