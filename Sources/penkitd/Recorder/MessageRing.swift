/// The newest lines penkitd published, with when, in a byte buffer allocated once: adding a line
/// copies it in and drops the oldest lines that no longer fit; it never allocates. A line longer
/// than the whole buffer (a long finalized stroke) is not kept, and is counted.
/// A value kept only under `FlightRecorder`'s lock.
struct MessageRing: Sendable {
    private struct Entry {
        var time: UInt64
        var start: Int
        var length: Int
    }

    let capacity: Int
    /// Bytes and entries are reserved at their full size, uninitialized (never read before they
    /// are written), so their pages are touched only as lines fill them.
    private var bytes: [UInt8]
    private var entries: [Entry]
    private let entryCapacity: Int
    private var firstEntry = 0
    private(set) var count = 0
    private var used = 0
    /// Where the next line's bytes go.
    private var writeAt = 0
    /// Lines longer than the buffer, not kept.
    private(set) var tooLong = 0

    /// `capacity` bytes of lines; one entry per 64 bytes of them (a frame line is hundreds).
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        let size = self.capacity
        bytes = Array(unsafeUninitializedCapacity: size) { _, initialized in initialized = size }
        entryCapacity = size / 64
        let entryCount = entryCapacity
        entries = Array(unsafeUninitializedCapacity: entryCount) { _, initialized in initialized = entryCount }
    }

    mutating func append(_ line: UnsafeRawBufferPointer, time: UInt64) {
        append(pieces: CollectionOfOne(line), time: time)
    }

    /// One line given as consecutive pieces.
    mutating func append(pieces: some Collection<UnsafeRawBufferPointer>, time: UInt64) {
        append(count: pieces.reduce(0) { $0 + $1.count }, time: time) { write in
            for piece in pieces { write(piece) }
        }
    }

    /// One line of `length` bytes, which `fill` hands to its `write` in consecutive pieces, for a
    /// line that is never whole in memory (a long stroke's, `PartedStroke`): `fill` is not called
    /// for a line too long to keep. Bytes past `length` are not kept; a line that comes short is not
    /// kept at all.
    mutating func append(count length: Int, time: UInt64, fill: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void) {
        guard length <= capacity, length > 0 else {
            if length > capacity { tooLong += 1 }
            return
        }
        // Lines are stored whole: one that would cross the buffer's end starts at its beginning.
        var at = writeAt
        if at + length > capacity {
            // Lines past the write position were written before the last wrap: the oldest. The
            // tail they sit in is given up with them, and writing starts again at the beginning.
            while count > 0, entries[firstEntry].start >= writeAt { dropOldest() }
            at = 0
        }
        while count > 0, count == entryCapacity || overlapsOldest(at: at, length: length) { dropOldest() }
        var to = at
        bytes.withUnsafeMutableBytes { buffer in
            fill { piece in
                let taken = min(piece.count, at + length - to)
                guard taken > 0 else { return }
                buffer.baseAddress!.advanced(by: to).copyMemory(from: piece.baseAddress!, byteCount: taken)
                to += taken
            }
        }
        // A fill shorter than it said is not kept (only lines already dropped were written over).
        guard to == at + length else { return }
        entries[(firstEntry + count) % entryCapacity] = Entry(time: time, start: at, length: length)
        count += 1
        used += length
        writeAt = at + length
    }

    /// The lines published at or after `time`, oldest first, each as its bytes.
    func lines(since time: UInt64) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for i in 0..<count {
            let entry = entries[(firstEntry + i) % entryCapacity]
            guard entry.time >= time else { continue }
            result.append(Array(bytes[entry.start..<(entry.start + entry.length)]))
        }
        return result
    }

    /// Whether [at, at + length) overlaps the oldest kept line.
    private func overlapsOldest(at: Int, length: Int) -> Bool {
        let oldest = entries[firstEntry]
        return at < oldest.start + oldest.length && oldest.start < at + length
    }

    private mutating func dropOldest() {
        used -= entries[firstEntry].length
        firstEntry = (firstEntry + 1) % entryCapacity
        count -= 1
    }
}
