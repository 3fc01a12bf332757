import Synchronization

/// A setting in force, replaced on SIGHUP (signal queue) and read by the input thread;
/// a generation number makes the input thread's check one atomic load.
final class SharedSetting<Value: Sendable>: Sendable {
    private let current: Mutex<Value>
    private let generation = Atomic<UInt64>(0)

    init(_ value: Value) { current = Mutex(value) }

    func replace(_ value: Value) {
        current.withLock { $0 = value }
        generation.add(1, ordering: .releasing)
    }

    /// The value if it changed since `seen` (which is then updated).
    func changed(since seen: inout UInt64) -> Value? {
        let now = generation.load(ordering: .acquiring)
        guard now != seen else { return nil }
        seen = now
        return current.withLock { $0 }
    }
}
