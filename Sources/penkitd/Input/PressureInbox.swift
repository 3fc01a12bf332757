import CLinuxCalls
import DequeModule
import Glibc
import PenEngine
import Synchronization

/// What the socket loop tells the input thread about pressure sources.
enum PressureInput: Sendable {
    case attach(device: UInt32, PressureSourceAttachment)
    /// `arrival`: when the socket loop read it (CLOCK_MONOTONIC µs), so that the engine's
    /// timeouts judge it by when it came, not by when the input thread got round to it.
    case reading(PressureReport, arrival: UInt64)
    case detach(device: UInt32, reason: String)
}

/// The hand-over from the socket loop to the input thread, which owns the engine: a
/// bounded queue behind a lock, and an eventfd that wakes the input thread's poll.
/// The engine itself is only ever touched by the input thread.
final class PressureInbox: Sendable {
    private let queue = Mutex<Deque<PressureInput>>([])
    /// Whether the queue holds anything, readable without the lock: the input thread asks before
    /// every pen event, and with no pressure source attached (nearly always) the answer must cost
    /// no syscall and no lock. A syscall on a thread that has just woken costs several µs here.
    private let waiting = Atomic<Bool>(false)
    /// Readable while something waits; the input thread polls it.
    let wakeup: Int32
    /// Readings waiting at most; a source's flood limit keeps far below it while the input
    /// thread runs, so reaching it means the input thread is stuck and the reading is refused.
    static let capacity = 8192

    init() throws {
        wakeup = penkit_eventfd()
        guard wakeup >= 0 else { throw DaemonError("eventfd: \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(wakeup) }

    /// Queues a reading; false when the queue is full. Attach and detach always go in
    /// (one each per source connection, so they cannot pile up).
    @discardableResult
    func post(_ input: PressureInput) -> Bool {
        let accepted = queue.withLock { queue -> Bool in
            if case .reading = input, queue.count >= Self.capacity { return false }
            queue.append(input)
            waiting.store(true, ordering: .releasing)
            return true
        }
        if accepted {
            var one: UInt64 = 1
            _ = Glibc.write(wakeup, &one, 8)
        }
        return accepted
    }

    /// Everything waiting, oldest first, into `out` (emptied first). Leaves the eventfd alone:
    /// the poll that watches it resets it (`acknowledgeWakeup`), so a reading posted while this
    /// runs still wakes that poll once more instead of waiting for the next event or tick.
    func take(into out: inout [PressureInput]) {
        out.removeAll(keepingCapacity: true)
        guard waiting.load(ordering: .acquiring) else { return }
        queue.withLock { queue in
            out.append(contentsOf: queue)
            queue.removeAll(keepingCapacity: true)
            waiting.store(false, ordering: .relaxed)
        }
    }

    /// Resets the eventfd after the poll saw it readable (it is non-blocking: a spurious call
    /// returns at once). Live input polls it with the tablets; a paced replay waits on it between
    /// frames (`TraceReplay`); an unpaced one takes no sources.
    func acknowledgeWakeup() {
        var count: UInt64 = 0
        _ = Glibc.read(wakeup, &count, 8)
    }
}
