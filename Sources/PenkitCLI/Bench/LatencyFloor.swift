import CLinuxCalls
import Foundation
import Glibc
import PenInputLinux
import PenKit
import Synchronization

/// What this machine's scheduler costs before penkitd does any work: a thread
/// sleeps until a deadline (as the input thread waits for the next event), then
/// sends 8 bytes to N reader threads over Unix sockets (as penkitd writes to its
/// clients), optionally through one relay thread in between (as penkitd hands each
/// batch to its event loop). Latency is measured from the deadline, as penkitd's
/// is from the event time, so the two figures compare directly. With `earlyWake`, the thread
/// first wakes that long before the deadline and sleeps again, as penkitd's input thread does
/// for a warm-up (`FrameWarmer`), without the warm-up's work: what waking early alone gives.
enum LatencyFloor {
    struct Result: Sendable {
        var timerLate: [UInt64]
        var received: [UInt64]
    }

    static func measure(readers: Int, relay: Bool, count: Int, intervalMicroseconds: UInt64, earlyWake: UInt64 = 0) -> Result {
        let clients = (0..<readers).map { _ in SocketPair() }
        let relayPair = relay ? SocketPair() : nil
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        for pair in clients {
            let fd = pair.readEnd
            startThread {
                var received: [UInt64] = []
                received.reserveCapacity(count)
                for _ in 0..<count {
                    guard let deadline = readStamp(fd) else { break }
                    received.append(MonotonicClock.now() - deadline)
                }
                log.results.withLock { $0.received += received }
                done.signal()
            }
        }
        let outputs = clients.map(\.writeEnd)
        if let relayPair {
            let input = relayPair.readEnd
            startThread {
                for _ in 0..<count {
                    guard let deadline = readStamp(input) else { break }
                    for fd in outputs { writeStamp(fd, deadline) }
                }
                done.signal()
            }
        }
        startThread {
            _ = penkit_set_timer_slack_ns(1)  // as penkitd's input thread does
            var late: [UInt64] = []
            late.reserveCapacity(count)
            for _ in 0..<count {
                let deadline = MonotonicClock.now() + intervalMicroseconds
                if earlyWake > 0 { MonotonicClock.sleep(until: deadline - earlyWake) }
                MonotonicClock.sleep(until: deadline)
                late.append(MonotonicClock.now() - deadline)
                if let relayPair { writeStamp(relayPair.writeEnd, deadline) } else {
                    for fd in outputs { writeStamp(fd, deadline) }
                }
            }
            log.results.withLock { $0.timerLate = late }
            done.signal()
        }
        for _ in 0..<(readers + (relay ? 2 : 1)) { done.wait() }
        for pair in clients + (relayPair.map { [$0] } ?? []) { pair.close() }
        return log.results.withLock { $0 }
    }

    private final class Log: Sendable {
        let results = Mutex(Result(timerLate: [], received: []))
    }

    private struct SocketPair {
        let readEnd: Int32
        let writeEnd: Int32
        init() {
            var fds: [Int32] = [0, 0]
            // Only a process out of descriptors fails here; a benchmark cannot go on without them.
            precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0, "socketpair failed: errno \(errno)")
            readEnd = fds[0]
            writeEnd = fds[1]
        }
        func close() { _ = Glibc.close(readEnd); _ = Glibc.close(writeEnd) }
    }

    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.start()
    }

    private static func writeStamp(_ fd: Int32, _ value: UInt64) {
        var value = value
        _ = withUnsafeBytes(of: &value) { write(fd, $0.baseAddress, 8) }
    }

    private static func readStamp(_ fd: Int32) -> UInt64? {
        var value: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
        return n == 8 ? value : nil
    }
}
