import Logging

/// Starts penkitd's services in order, waits for a stop (a signal, or a service that asked for
/// one), and stops them in reverse order, each joined before the next is stopped: what started
/// last, and depends on the others, is gone before them.
final class ServiceGroup {
    private let services: [any DaemonService]
    private let stops: StopSignals
    private let logger: Logger

    init(_ services: [any DaemonService], stops: StopSignals, logger: Logger) {
        self.services = services
        self.stops = stops
        self.logger = logger
    }

    /// Runs until a stop is requested. `ready` runs once every service has started, `stopping`
    /// as the stop begins. A service that fails to start stops those started before it, and its
    /// error is thrown.
    func run(ready: () -> Void, stopping: () -> Void) throws {
        var started: [any DaemonService] = []
        defer { stopAll(started) }
        for service in services {
            do {
                try service.start()
            } catch {
                logger.error("a service failed to start", metadata: ["service": "\(service.name)", "error": "\(error)"])
                throw error
            }
            started.append(service)
        }
        ready()
        stops.wait()
        stopping()
    }

    private func stopAll(_ started: [any DaemonService]) {
        for service in started.reversed() {
            service.stop()
            service.join()
            logger.debug("service stopped", metadata: ["service": "\(service.name)"])
        }
    }
}
