import Dispatch
import Glibc
import Logging
import PenKit
import Synchronization

/// penkitd's services and their life, as swift-service-lifecycle's `ServiceGroup` runs them, on
/// threads (the input thread and the socket loop are threads of their own: the hot path takes no
/// async hop), without its package (docs/daemon.md, "Stopping": penkitd's size budget).
///
/// The group handles the stop signals itself (`Configuration.gracefulShutdownSignals`), from
/// penkitd's first instruction: a stop may come while the config or the trace is still being read.
/// It starts the services in order, waits for a stop (a signal, a service that asked for one, or
/// one that failed), and stops them in reverse order, each joined before the next is stopped:
/// what started last, and depends on the others, is gone before them. The stop has a deadline.
final class ServiceGroup: Sendable {
    struct Configuration: Sendable {
        /// Signals that start the graceful stop: services stop in reverse order, clients get their
        /// last lines. There are no cancellation signals: the deadline bounds the stop, and systemd's
        /// SIGKILL after `TimeoutStopSec` is the hard one.
        var gracefulShutdownSignals: [(number: Int32, name: String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")]
        /// The longest the stop may take once requested: past it penkitd exits anyway, with an
        /// error naming the service still stopping. Its parts: clients' grace of up to 1 s to take
        /// their last lines (`ClientConnection`), the input thread's ≤ 25 ms to notice, the journal's
        /// last sync. systemd's `TimeoutStopSec` (systemd/penkit.service) is longer, so this fires first.
        var maximumGracefulShutdownDuration: Duration = .seconds(5)
    }

    let configuration: Configuration
    private let stop = StopRequest()
    /// The first service that failed, and how: the group's error once it has stopped.
    private let failure = Mutex<ServiceFailure?>(nil)
    /// Set once in init and only cancelled afterwards; DispatchSource's cancel is thread-safe.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Watches the stop signals from now on (their default action, ending the process, is off).
    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let queue = DispatchQueue(label: "penkitd.signals")
        var sources: [any DispatchSourceSignal] = []
        let stop = self.stop
        for (number, name) in configuration.gracefulShutdownSignals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: DispatchWorkItem {
                stop.signalled(name)
            })
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Called (on the signal queue) when a stop signal arrives, before the stop is requested.
    func whenSignalled(_ action: @escaping @Sendable (String) -> Void) { stop.whenSignalled(action) }

    /// Asks the group to stop, as a signal does (swift-service-lifecycle's `triggerGracefulShutdown`).
    func requestStop(reason: String) { stop.request(reason: reason) }
    var isStopping: Bool { stop.isRequested }
    var stopReason: String { stop.reason }

    /// Runs `services` until a stop is requested. `ready` runs once every service has started,
    /// `stopping` as the stop begins. Throws the error of a service that failed to start (those
    /// started before it are stopped) or that failed while running (`ServiceFailure`), and
    /// `ShutdownOverdue` when the stop outlasted its deadline.
    func run(_ services: [any DaemonService], logger: Logger, ready: () -> Void, stopping: () -> Void) throws {
        defer { for source in sources { source.cancel() } }
        var started: [any DaemonService] = []
        for service in services {
            do {
                try service.start { [self] error in failed(service.name, error, logger: logger) }
            } catch {
                logger.error("a service failed to start", metadata: ["service": "\(service.name)", "error": "\(error)"])
                try stopAll(started, logger: logger)
                throw error
            }
            started.append(service)
        }
        ready()
        stop.wait()
        stopping()
        try stopAll(started, logger: logger)
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// A service failed while running: the group stops, with its error in the log and as the group's.
    private func failed(_ name: String, _ error: any Error, logger: Logger) {
        let first = failure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            failure = ServiceFailure(service: name, error: "\(error)")
            return true
        }
        logger.error("a service failed; penkitd stops", metadata: ["service": "\(name)", "error": "\(error)"])
        if first { stop.request(reason: "\(name) failed") }
    }

    /// Stops the services on a thread of their own, waiting at most the deadline for it.
    private func stopAll(_ started: [any DaemonService], logger: Logger) throws {
        let current = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let stopping = Array(started.reversed())
        DetachedThread.start(name: "penkitd-stop") {
            for service in stopping {
                current.withLock { $0 = service.name }
                service.stop()
                service.join()
                logger.debug("service stopped", metadata: ["service": "\(service.name)"])
            }
            done.signal()
        }
        let deadline = configuration.maximumGracefulShutdownDuration
        guard done.wait(timeout: .now() + .microseconds(Int(deadline / .microseconds(1)))) == .timedOut else { return }
        let overdue = ShutdownOverdue(service: current.withLock { $0 } ?? "?", deadline: deadline)
        logger.error("\(overdue)")
        throw overdue
    }
}

/// A service failed while penkitd ran: penkitd stopped, and exits with an error.
struct ServiceFailure: Error, CustomStringConvertible {
    let service: String
    let error: String
    var description: String { "the \(service) service failed: \(error)" }
}

/// The stop outlasted its deadline: penkitd exits without waiting for the rest.
struct ShutdownOverdue: Error, CustomStringConvertible {
    let service: String
    let deadline: Duration
    var description: String {
        "the stop outlasted its deadline of \(deadline); exiting while the \(service) service was still stopping"
    }
}
