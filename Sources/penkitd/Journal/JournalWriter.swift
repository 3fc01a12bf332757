import Glibc

/// Appends records to the newest segment, rotates and prunes segments, and syncs
/// as the fsync policy says. Used by one thread at a time (StrokeJournal's lock).
struct JournalWriter {
    let directory: String
    let options: JournalOptions
    private var segments: [JournalRecovery.Segment]
    private var fd: Int32 = -1
    private var directoryFD: Int32 = -1
    private let backgroundSync: BackgroundSync?
    /// The record's header; the payload is written from the caller's bytes (writev), never copied.
    private var buffer: [UInt8] = []
    private var floor: SeqFloor

    init(directory: String, options: JournalOptions, segments: [JournalRecovery.Segment], floor: SeqFloor) throws(JournalError) {
        self.directory = directory
        self.options = options
        self.segments = segments
        self.floor = floor
        backgroundSync = options.fsync == .interval ? BackgroundSync(intervalMilliseconds: options.fsyncIntervalMilliseconds) : nil
        directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw .system("cannot open journal directory \(directory)", errno) }
        buffer.reserveCapacity(64)
        if let newest = segments.last {
            let path = self.path(newest.number)
            fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { throw .system("cannot open \(path) for writing", errno) }
        }
    }

    private func path(_ number: UInt64) -> String { directory + "/" + JournalFiles.segmentName(number) }

    /// Writes one record (and syncs a stroke as the policy says). On failure nothing of it stays in the file.
    mutating func append(kind: JournalFormat.Kind, seq: UInt64, strokeID: UInt64, payload: [UInt8],
                         wallTime: UInt64) throws(JournalError) {
        // withUnsafeBytes rethrows untyped errors: the typed one is carried out by hand.
        let failure: JournalError? = payload.withUnsafeBytes { bytes in
            do throws(JournalError) {
                try append(kind: kind, seq: seq, strokeID: strokeID, payload: [bytes], wallTime: wallTime)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// The same for a payload in pieces: header and pieces go to writev(2) as they lie.
    mutating func append(kind: JournalFormat.Kind, seq: UInt64, strokeID: UInt64, payload: [UnsafeRawBufferPointer],
                         wallTime: UInt64) throws(JournalError) {
        // A background sync that failed fails this stroke: the journal is reported failing, and
        // the next stroke tries again.
        if kind == .stroke, let failure = backgroundSync?.takeFailure() { throw failure }
        buffer.removeAll(keepingCapacity: true)
        JournalFormat.encodeHeader(kind: kind, seq: seq, strokeID: strokeID, wallTime: wallTime, payload: payload, into: &buffer)
        try startSegmentIfNeeded(wallTime: wallTime)
        let index = segments.count - 1
        let payloadBytes = payload.reduce(0) { $0 + $1.count }
        let (fd, restore, segmentPath) = (self.fd, segments[index].bytes, path(segments[index].number))
        let failure: JournalError? = buffer.withUnsafeBytes { header in
            do throws(JournalError) {
                try JournalFiles.writeAll(fd, pieces: [header] + payload, restoringTo: restore, path: segmentPath)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
        try noteAppended(kind: kind, bytes: buffer.count + payloadBytes, wallTime: wallTime)
    }

    /// A record whose payload is never whole in memory (a long stroke's whole line, `PartedStroke`):
    /// `groups` hands its `write` the payload's pieces a group at a time, and stops when `write`
    /// returns false. The header goes first (in the first group's writev), with the payload's
    /// length and the checksum left 0; the checksum is written into it once the payload is out. A
    /// crash in between leaves a last record with a bad checksum or cut short, which recovery cuts
    /// off as any torn tail. On failure nothing of the record stays in the file.
    mutating func append(kind: JournalFormat.Kind, seq: UInt64, strokeID: UInt64, payloadBytes: Int, wallTime: UInt64,
                         groups: (_ write: ([UnsafeRawBufferPointer]) -> Bool) -> Void) throws(JournalError) {
        if kind == .stroke, let failure = backgroundSync?.takeFailure() { throw failure }
        buffer.removeAll(keepingCapacity: true)
        var crc = JournalFormat.encodeHeader(kind: kind, seq: seq, strokeID: strokeID, wallTime: wallTime,
                                             payloadBytes: payloadBytes, into: &buffer)
        try startSegmentIfNeeded(wallTime: wallTime)
        let index = segments.count - 1
        let (fd, start, segmentPath) = (self.fd, segments[index].bytes, path(segments[index].number))
        let header = buffer
        var headerWritten = false
        var failure: JournalError?
        var written = 0
        groups { pieces in
            for piece in pieces { crc = CRC32C.checksum(piece, seed: crc) }
            written += pieces.reduce(0) { $0 + $1.count }
            // The header goes out in the first group's writev(2).
            failure = header.withUnsafeBytes { h in
                do throws(JournalError) {
                    try JournalFiles.writeAll(fd, pieces: headerWritten ? pieces : [h] + pieces, restoringTo: start, path: segmentPath)
                    return nil
                } catch { return error }
            }
            headerWritten = true
            return failure == nil
        }
        if let failure { throw failure }
        if !headerWritten { try JournalFiles.writeAll(fd, header, restoringTo: start, path: segmentPath) }
        guard written == payloadBytes else {
            _ = ftruncate(fd, off_t(start))
            throw .system("a long stroke's line came to \(written) bytes, not the \(payloadBytes) it was measured at; not journaled", EIO)
        }
        JournalFormat.setChecksum(crc, ofHeaderAt: 0, in: &buffer)
        try JournalFiles.patch(fd, buffer[JournalFormat.checksumOffset..<(JournalFormat.checksumOffset + 4)],
                               at: start + JournalFormat.checksumOffset, restoringTo: start, path: segmentPath)
        try noteAppended(kind: kind, bytes: buffer.count + payloadBytes, wallTime: wallTime)
    }

    /// Counts a written record in its segment and syncs a stroke as the policy says.
    private mutating func noteAppended(kind: JournalFormat.Kind, bytes: Int, wallTime: UInt64) throws(JournalError) {
        let index = segments.count - 1
        segments[index].bytes += bytes
        segments[index].newestWallTime = wallTime
        guard kind == .stroke else { return }
        switch options.fsync {
        case .always:
            try JournalFiles.sync(fd, path: path(segments[index].number))
        case .interval:
            try backgroundSync?.schedule(fd, path: path(segments[index].number))
        case .never:
            break
        }
    }

    /// Records numbers handed out while records could not be written.
    mutating func storeFloor(seq: UInt64, strokeID: UInt64) { floor.store(seq: seq, strokeID: strokeID) }

    private mutating func startSegmentIfNeeded(wallTime: UInt64) throws(JournalError) {
        if fd >= 0, let current = segments.last, current.bytes < options.segmentBytes { return }
        if fd >= 0 {
            if options.fsync != .never { _ = fdatasync(fd) }
            Glibc.close(fd)
            fd = -1
        }
        let number = (segments.last?.number ?? 0) + 1
        let path = self.path(number)
        let newFD = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard newFD >= 0 else { throw .system("cannot create \(path)", errno) }
        let header = JournalFormat.fileHeader()
        do throws(JournalError) {
            try JournalFiles.writeAll(newFD, header, restoringTo: 0, path: path)
            if options.fsync != .never {
                try JournalFiles.sync(newFD, path: path)
                guard fsync(directoryFD) == 0 else { throw JournalError.system("cannot sync \(directory)", errno) }
            }
        } catch {
            Glibc.close(newFD)
            unlink(path)
            throw error
        }
        fd = newFD
        segments.append(.init(number: number, bytes: header.count, newestWallTime: wallTime))
        prune(now: wallTime)
    }

    /// Removes the oldest segments (never the one being written) past the size or age bound.
    mutating func prune(now: UInt64) {
        var total = segments.reduce(0) { $0 + $1.bytes }
        let maxAge = UInt64(options.maxAgeSeconds) * 1_000_000
        let oldest = now > maxAge ? now - maxAge : 0
        while segments.count > 1, total > options.maxBytes || segments[0].newestWallTime < oldest {
            unlink(path(segments[0].number))
            total -= segments[0].bytes
            segments.removeFirst()
        }
    }

    mutating func close() {
        if fd >= 0 {
            if options.fsync != .never { _ = fdatasync(fd) }
            Glibc.close(fd)
            fd = -1
        }
        if directoryFD >= 0 { Glibc.close(directoryFD); directoryFD = -1 }
        floor.close()
    }
}
