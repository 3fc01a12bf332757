import Glibc

/// The journal's files: `segment-NNNNNNNNNN.pkj` in order, and `seq-floor`.
/// Plain system calls on descriptors: the input thread appends here between frames.
enum JournalFiles {
    static func segmentName(_ number: UInt64) -> String {
        let digits = String(number)
        return "segment-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits + ".pkj"
    }

    static func segmentNumber(_ name: String) -> UInt64? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".pkj") else { return nil }
        return UInt64(name.dropFirst(8).dropLast(4))
    }

    /// Segment numbers in `directory`, ascending.
    static func segments(in directory: String) throws(JournalError) -> [UInt64] {
        guard let dir = opendir(directory) else { throw .system("cannot read journal directory \(directory)", errno) }
        defer { closedir(dir) }
        var numbers: [UInt64] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if let number = segmentNumber(name) { numbers.append(number) }
        }
        return numbers.sorted()
    }

    /// Creates `path` and its parents (mode 0700: strokes are the user's handwriting). One that
    /// cannot be created is `.system` (penkitd then serves without a journal); one that is there,
    /// or whose parent is there, but is no directory penkitd can use is `.unusable`.
    static func makeDirectory(_ path: String) throws(JournalError) {
        // A relative path's first component is made in the working directory, not at the root.
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                if errno == ENOTDIR { throw .unusable(path: path, reason: "a parent of it is not a directory") }
                throw .system("cannot create state directory \(prefix)", errno)
            }
        }
        var st = stat()
        guard stat(path, &st) == 0 else { throw .system("cannot create state directory \(path)", errno) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .unusable(path: path, reason: "it is not a directory") }
        guard access(path, R_OK | W_OK | X_OK) == 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
    }

    static func readAll(_ path: String) throws(JournalError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw .system("cannot read \(path)", errno) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Writes `header` then `payload` with writev(2); on failure the file is cut back to `offset`,
    /// so nothing of the record stays.
    static func writeAll(_ fd: Int32, header: [UInt8], payload: [UInt8], restoringTo offset: Int, path: String) throws(JournalError) {
        // withUnsafeBytes rethrows untyped errors: the typed one is carried out by hand.
        let failure: JournalError? = header.withUnsafeBytes { h in
            payload.withUnsafeBytes { p in
                do throws(JournalError) {
                    try writeAll(fd, pieces: [h, p], restoringTo: offset, path: path)
                    return nil
                } catch { return error }
            }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes`; on failure the file is cut back to `offset`, so no partial record stays.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], restoringTo offset: Int, path: String) throws(JournalError) {
        try writeAll(fd, header: bytes, payload: [], restoringTo: offset, path: path)
    }

    /// Writes `pieces` in order with writev(2), at most IOV_MAX of them a call, resuming after a
    /// short write: a record's header and its payload (a long stroke's many pieces, `PartedStroke`)
    /// go out from where they lie, never gathered into one buffer first.
    static func writeAll(_ fd: Int32, pieces: [UnsafeRawBufferPointer], restoringTo offset: Int, path: String) throws(JournalError) {
        var vectors = pieces.filter { !$0.isEmpty }.map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
        }
        var first = 0
        while first < vectors.count {
            let count = min(vectors.count - first, Self.maxVectors)
            let n = vectors.withUnsafeMutableBufferPointer { writev(fd, $0.baseAddress! + first, Int32(count)) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                _ = ftruncate(fd, off_t(offset))
                throw .system("cannot write \(path)", code)
            }
            // Skip what was written: whole pieces, then the written start of the next one.
            var written = n
            while written > 0, first < vectors.count {
                let length = vectors[first].iov_len
                if written >= length {
                    written -= length
                    first += 1
                } else {
                    vectors[first].iov_base = vectors[first].iov_base! + written
                    vectors[first].iov_len = length - written
                    written = 0
                }
            }
        }
    }

    /// Writes `bytes` over what the file holds at `offset` (a record's checksum, once its payload is
    /// out). The segment is open with O_APPEND, under which pwrite(2) appends on Linux, so the flag
    /// is lifted for this one write. On failure the file is cut back to `restoringTo`.
    static func patch(_ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int, restoringTo start: Int, path: String) throws(JournalError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_APPEND) == 0 else {
            let code = errno
            _ = ftruncate(fd, off_t(start))
            throw .system("cannot write \(path)", code)
        }
        defer { _ = fcntl(fd, F_SETFL, flags) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                _ = ftruncate(fd, off_t(start))
                throw .system("cannot write \(path)", code)
            }
            done += n
        }
    }

    /// Linux's IOV_MAX (UIO_MAXIOV): the most pieces one writev(2) takes.
    static let maxVectors = 1024

    static func sync(_ fd: Int32, path: String) throws(JournalError) {
        guard fdatasync(fd) == 0 else { throw .system("cannot sync \(path)", errno) }
    }
}

/// A journal problem, with the file and the system's reason.
enum JournalError: Error, CustomStringConvertible, Equatable {
    case system(String, Int32)
    case newerFormat(path: String, version: UInt32)
    case corrupt(path: String, offset: Int, reason: String)
    /// The state directory is there but penkitd cannot keep its journal in it: a mistake to fix, not to serve around.
    case unusable(path: String, reason: String)

    var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .newerFormat(let path, let version):
            "\(path) is journal format \(version); this penkitd reads format \(JournalFormat.version) and will not overwrite it (move the state directory aside or upgrade penkitd)"
        case .corrupt(let path, let offset, let reason): "\(path) is corrupt at byte \(offset): \(reason)"
        case .unusable(let path, let reason): "state directory \(path) cannot be used: \(reason)"
        }
    }
}
