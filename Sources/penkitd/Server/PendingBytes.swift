/// Bytes accepted for one client that its socket has not taken yet, oldest first.
/// Sent from the front, appended at the back; the sent prefix is dropped only once
/// it is at least half the storage, so that sending stays linear in the bytes.
struct PendingBytes {
    private var storage: [UInt8] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// Hands the unsent bytes to `send`, which returns how many it took.
    mutating func send(_ send: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard !isEmpty else { return 0 }
        let taken = storage.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[head...])) }
        guard taken > 0 else { return taken }
        head += taken
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            head = 0
        } else if head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return taken
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }
}
