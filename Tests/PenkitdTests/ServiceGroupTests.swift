import Dispatch
import Glibc
import Logging
@testable import penkitd
import Synchronization
import Testing

/// The group's stop with real threads: a service that fails stops the others and is the group's
/// error; a stop that outlasts the deadline ends the wait with an error naming the service still
/// stopping. The bounds only limit failure (a group that never returns).
@Suite struct ServiceGroupTests {
    let logger = Logger(label: "test")

    @Test func aServiceThatFailsStopsTheGroupWithItsError() throws {
        let group = ServiceGroup(configuration: ServiceGroup.Configuration(gracefulShutdownSignals: []))
        let stopped = Atomic<Bool>(false)
        let first = ActionService(name: "first", start: { _ in }, stop: { stopped.store(true, ordering: .relaxed) })
        let failing = ThreadService(name: "failing") { _ in throw DaemonError("the device vanished") }
        #expect {
            try group.run([first, failing], logger: logger, ready: {}, stopping: {})
        } throws: { error in
            (error as? ServiceFailure)?.description == "the failing service failed: the device vanished"
        }
        let firstStopped = stopped.load(ordering: .relaxed)
        #expect(firstStopped)
        #expect(group.stopReason == "failing failed")
    }

    @Test func aStopThatOutlastsTheDeadlineEndsWithTheServiceNamed() throws {
        var configuration = ServiceGroup.Configuration()
        configuration.gracefulShutdownSignals = []
        configuration.maximumGracefulShutdownDuration = .milliseconds(100)
        let group = ServiceGroup(configuration: configuration)
        let release = DispatchSemaphore(value: 0)
        // A thread that does not look at `isStopping`: it ends only when the test lets it.
        let stuck = ThreadService(name: "stuck") { _ in _ = release.wait(timeout: .now() + 30) }
        group.requestStop(reason: "test")
        #expect {
            try group.run([stuck], logger: logger, ready: {}, stopping: {})
        } throws: { error in
            (error as? ShutdownOverdue)?.service == "stuck"
        }
        release.signal()
        stuck.join()
    }

    @Test func aStopInTimeEndsWithoutError() throws {
        let group = ServiceGroup(configuration: ServiceGroup.Configuration(gracefulShutdownSignals: []))
        let loop = ThreadService(name: "loop") { isStopping in
            while !isStopping() { usleep(1_000) }
        }
        group.requestStop(reason: "test")
        try group.run([loop], logger: logger, ready: {}, stopping: {})
        #expect(group.stopReason == "test")
    }
}
