import CLinuxCalls
import DequeModule
import Glibc
import PenEngine
import PenKit
import Synchronization

/// What the control plane tells the input thread: pressure sources' attachments, readings and
/// detachments, and the prediction horizons subscribed clients ask for.
enum ControlInput: Sendable {
    case attach(device: UInt32, PressureSourceAttachment)
    /// `arrival`: when the socket loop read it (CLOCK_MONOTONIC µs), so that the engine's
    /// timeouts judge it by when it came, not by when the input thread got round to it.
    case reading(PressureReport, arrival: UInt64)
    case detach(device: UInt32, reason: String)
    /// The distinct horizons subscribed clients asked for other than `PredictionRequest.standard`,
    /// all of them: each replaces the one before.
    case horizons([PredictionRequest])
}

/// The hand-over from the control plane (the socket loop) to the input thread, which owns the
/// engine: a bounded queue behind a lock, and an eventfd that wakes the input thread's poll.
/// The control plane only posts; the input loop drains it at its own pace, as inputs, before
/// each pen event and engine tick. Made by the daemon, so that neither side holds the other.
final class ControlQueue: Sendable {
    private let queue = Mutex<Deque<ControlInput>>([])
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

    /// Queues an input; false when a reading finds the queue full. Everything else always goes
    /// in (attach and detach are one each per source connection, horizons one per subscription
    /// or departure, so they cannot pile up).
    @discardableResult
    func post(_ input: ControlInput) -> Bool {
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
    /// the poll that watches it resets it (`acknowledgeWakeup`), so an input posted while this
    /// runs still wakes that poll once more instead of waiting for the next event or tick.
    func take(into out: inout [ControlInput]) {
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
    /// frames (`TraceReplaySource`); an unpaced one never waits.
    func acknowledgeWakeup() {
        var count: UInt64 = 0
        _ = Glibc.read(wakeup, &count, 8)
    }
}
