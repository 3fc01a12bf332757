import Dispatch
import Synchronization

/// The group's stop: requested once (by a signal, a service that asked, or one that failed), with
/// its reason; waited for by the group, polled by every wait of penkitd's own (`isStopping`).
final class StopRequest: Sendable {
    private let requested = Atomic<Bool>(false)
    private let reasonText = Mutex<String>("stopped")
    private let semaphore = DispatchSemaphore(value: 0)

    private let onSignal = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Called (on the signal queue) when a stop signal arrives, before the stop is requested.
    func whenSignalled(_ action: @escaping @Sendable (String) -> Void) { onSignal.withLock { $0 = action } }

    /// A stop signal arrived: it is announced, then the stop requested, with its name as reason.
    func signalled(_ name: String) {
        onSignal.withLock { $0 }?(name)
        request(reason: name)
    }

    /// The first request's reason wins: a stop is not re-explained by what follows it.
    func request(reason text: String) {
        if !requested.exchange(true, ordering: .relaxed) { reasonText.withLock { $0 = text } }
        semaphore.signal()
    }

    var isRequested: Bool { requested.load(ordering: .relaxed) }
    var reason: String { reasonText.withLock { $0 } }

    /// Blocks until a stop is requested.
    func wait() {
        semaphore.wait()
        semaphore.signal()  // later waiters return at once too
    }
}

/// Thrown when a stop was requested while penkitd was still starting.
struct StoppedWhileStarting: Error, CustomStringConvertible {
    var description: String { "stopped while starting" }
}
