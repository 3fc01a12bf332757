import Dispatch
import PenKit
import Synchronization

/// A service whose work is one thread's body: it runs until the body returns, which it must do
/// soon after `isStopping` turns true. A body that returns early has done its work (a replay
/// that finished); one that throws has failed, and the group stops.
final class ThreadService: DaemonService {
    let name: String
    private let body: @Sendable (_ isStopping: @escaping @Sendable () -> Bool) throws -> Void
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    init(name: String, body: @escaping @Sendable (_ isStopping: @escaping @Sendable () -> Bool) throws -> Void) {
        self.name = name
        self.body = body
    }

    func start(failed: @escaping @Sendable (any Error) -> Void) throws {
        running.store(true, ordering: .relaxed)
        DetachedThread.start(name: name) { [self] in
            defer { done.signal() }
            do {
                try body { self.stopping.load(ordering: .relaxed) }
            } catch {
                failed(error)
            }
        }
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    func join() {
        guard running.load(ordering: .relaxed) else { return }
        done.wait()
        done.signal()  // a second join returns at once
    }
}

/// A service that is a start and a stop action with nothing to join (the socket loop's own
/// thread is joined by its stop; a dispatch source is cancelled).
final class ActionService: DaemonService {
    let name: String
    private let onStart: @Sendable (_ failed: @escaping @Sendable (any Error) -> Void) throws -> Void
    private let onStop: @Sendable () -> Void

    /// `start` gets the group's `failed`, for what it starts (the socket loop's thread).
    init(name: String, start: @escaping @Sendable (_ failed: @escaping @Sendable (any Error) -> Void) throws -> Void,
         stop: @escaping @Sendable () -> Void) {
        self.name = name
        onStart = start
        onStop = stop
    }

    func start(failed: @escaping @Sendable (any Error) -> Void) throws { try onStart(failed) }
    func stop() { onStop() }
    func join() {}
}

/// A dispatch signal source shared by a service's start and stop closures, behind a lock so the
/// compiler checks what crosses threads: set up and resumed at start, cancelled at stop.
final class SignalSourceService: Sendable {
    private let source: Mutex<any DispatchSourceSignal>

    init(_ source: sending any DispatchSourceSignal) { self.source = Mutex(source) }

    func resume(handler: @escaping @Sendable () -> Void) {
        source.withLock { source in
            source.setEventHandler(handler: handler)
            source.resume()
        }
    }

    func cancel() { source.withLock { $0.cancel() } }
}
