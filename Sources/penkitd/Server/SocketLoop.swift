import CLinuxCalls
import Dispatch
import FoundationEssentials
import Glibc
import PenKit
import Synchronization

/// The socket loop's thread: accepts clients, reads their requests, sends what a
/// slow client could not take when the input thread wrote, and closes clients whose
/// close grace ran out. Frames do not pass through here: the input thread writes them.
final class SocketLoop: Sendable {
    private let hub: Hub
    private let listener: Int32
    private let wakeup: Int32
    private let stopRequested = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// systemd's watchdog interval, pinged from this loop so that a wedged loop stops the pings.
    private let watchdog: Duration?

    init(hub: Hub, listener: Int32, watchdog: Duration?) throws {
        self.hub = hub
        self.listener = listener
        self.watchdog = watchdog
        wakeup = penkit_eventfd()
        guard wakeup >= 0 else { throw DaemonError("eventfd: \(String(cString: strerror(errno)))") }
        try hub.epoll.add(listener, events: Epoll.input)
        try hub.epoll.add(wakeup, events: Epoll.input)
    }

    /// `failed`: the loop ended on an error (its epoll wait failing), not on a stop: the group stops.
    func start(failed: @escaping @Sendable (any Error) -> Void) {
        DetachedThread.start(name: "penkitd-sockets") { [self] in
            if let error = run() { failed(error) }
            done.signal()
        }
    }

    /// Stops accepting; the loop ends once every client is closed (each has a bounded grace).
    func stop() {
        stopRequested.store(true, ordering: .relaxed)
        var one: UInt64 = 1
        _ = Glibc.write(wakeup, &one, 8)
        done.wait()
        Glibc.close(wakeup)
    }

    private func run() -> DaemonError? {
        var events = [penkit_socket_event](repeating: penkit_socket_event(), count: 64)
        let pingInterval = watchdog.map(\.wholeMicroseconds)
        // The first ping an interval after start, so that systemd hears READY=1 first.
        var nextPing = MonotonicClock.now() + (pingInterval ?? 0)
        var nextClose = UInt64.max
        var stopping = false
        while true {
            let now = MonotonicClock.now()
            if let pingInterval, now >= nextPing {
                SdNotify.send("WATCHDOG=1")
                nextPing = now + pingInterval
            }
            nextClose = hub.expireCloses(now: now)
            if stopping, hub.isEmpty { return nil }
            let nextDeflation = hub.deflateHistory(now: now)
            let deadline = min(nextClose, nextDeflation, pingInterval == nil ? .max : nextPing)
            let timeout = deadline == .max ? -1 : Int32(min((deadline - min(deadline, now)) / 1000 + 1, 60_000))
            let count = hub.epoll.wait(into: &events, timeoutMilliseconds: timeout)
            if count < 0 {
                if errno == EINTR { continue }
                return DaemonError("epoll_wait: \(String(cString: strerror(errno)))")
            }
            for event in events.prefix(count) {
                let fd = event.fd
                if fd == wakeup {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeup, &value, 8)
                } else if fd == listener {
                    acceptAll()
                } else {
                    hub.socketEvent(fd, events: event.events)
                }
            }
            if !stopping, stopRequested.load(ordering: .relaxed) {
                stopping = true
                hub.epoll.remove(listener)
            }
        }
    }

    private func acceptAll() {
        while true {
            let fd = penkit_accept(listener)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            hub.accept(fd)
        }
    }
}
