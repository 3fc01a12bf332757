import Dispatch
import Glibc
import Synchronization

/// SIGTERM and SIGINT, watched from penkitd's first instruction: a stop may come while the
/// config or the trace is still being read (a FIFO with no writer). Every wait of penkitd's own
/// checks `isStopping` at least every 25 ms; what follows is the services' stop
/// (`ServiceGroup`), in which clients get a grace of up to a second to take their last lines
/// (`ClientConnection`'s shutdown grace).
final class StopSignals: Sendable {
    private let state = StopState()
    /// Set once in init and only cancelled afterwards; DispatchSource's cancel is thread-safe.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
    let queue = DispatchQueue(label: "penkitd.signals")

    init() {
        var sources: [any DispatchSourceSignal] = []
        let state = self.state
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: DispatchWorkItem {
                state.onStop.withLock { $0 }?(name)
                state.request(reason: name)
            })
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Called (on the signal queue) when a signal arrives, before the stop is requested.
    func whenSignalled(_ action: @escaping @Sendable (String) -> Void) { state.onStop.withLock { $0 = action } }

    func request(reason: String) { state.request(reason: reason) }
    var isStopping: Bool { state.requested.load(ordering: .relaxed) }
    var stopReason: String { state.reason.withLock { $0 } }

    /// Blocks until a stop is requested.
    func wait() {
        state.semaphore.wait()
        state.semaphore.signal()  // later waiters return at once too
    }

    func cancel() { for source in sources { source.cancel() } }
}

private final class StopState: Sendable {
    let requested = Atomic<Bool>(false)
    let reason = Mutex<String>("stopped")
    let semaphore = DispatchSemaphore(value: 0)
    let onStop = Mutex<(@Sendable (String) -> Void)?>(nil)

    func request(reason text: String) {
        if !requested.exchange(true, ordering: .relaxed) { reason.withLock { $0 = text } }
        semaphore.signal()
    }
}

/// Thrown when a stop was requested while penkitd was still starting.
struct StoppedWhileStarting: Error, CustomStringConvertible {
    var description: String { "stopped while starting" }
}
