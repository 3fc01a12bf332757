import Glibc

/// `seq-floor`: the highest seq and stroke id handed out while the journal could not
/// record them (a full disk). Rewritten in place, so it needs no new disk space, and read
/// at the next start so that numbering never reuses a seq a client was sent.
struct SeqFloor {
    static let name = "seq-floor"
    private var fd: Int32 = -1
    /// What the file holds: the floor only rises. A `began` record carries no seq (0), and one
    /// that fails after a stroke's must not lower the seq the next start continues after.
    private var stored: (seq: UInt64, strokeID: UInt64) = (0, 0)

    static func read(directory: String) -> (seq: UInt64, strokeID: UInt64)? {
        guard let bytes = try? JournalFiles.readAll(directory + "/" + name), bytes.count >= 20 else { return nil }
        guard CRC32C.checksum(bytes[0..<16]) == JournalFormat.read(UInt32.self, bytes, at: 16) else { return nil }
        return (JournalFormat.read(UInt64.self, bytes, at: 0), JournalFormat.read(UInt64.self, bytes, at: 8))
    }

    /// Creates (or reuses) the file and stores the numbers; the file keeps its blocks from then on.
    init(directory: String, seq: UInt64, strokeID: UInt64, sync: Bool) throws(JournalError) {
        let path = directory + "/" + Self.name
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
        guard store(seq: seq, strokeID: strokeID) else {
            let code = errno
            Glibc.close(fd)
            throw .system("cannot write \(path)", code)
        }
        if sync { _ = fsync(fd) }
    }

    /// Raises the floor to `seq` and `strokeID` where they are higher: one pwrite at offset 0;
    /// false if it failed.
    @discardableResult
    mutating func store(seq: UInt64, strokeID: UInt64) -> Bool {
        stored = (max(stored.seq, seq), max(stored.strokeID, strokeID))
        let (seq, strokeID) = stored
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        JournalFormat.append(seq, to: &bytes)
        JournalFormat.append(strokeID, to: &bytes)
        JournalFormat.append(CRC32C.checksum(bytes[0..<16]), to: &bytes)
        return bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == 20
    }

    func close() { if fd >= 0 { Glibc.close(fd) } }
}
