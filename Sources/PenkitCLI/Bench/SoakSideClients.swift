import Foundation
import Glibc
import PenKit
import Synchronization

/// The soak's other clients, each on its own thread until `stop`: a stalled subscriber that never
/// reads (a new one as soon as penkitd cuts the last off), a client that connects, subscribes and
/// leaves every 10 ms, and a pressure source that declares itself every second and reads penkitd's
/// answer.
final class SoakSideClients: Sendable {
    struct Counts {
        var stalledCutOff = 0
        var churned = 0
        var churnFailures = 0
        var sourcesAnswered = 0
        var sourceAnswers: Set<String> = []
    }

    private let socket: String
    private let control: SoakControl
    private let state = Mutex(Counts())

    init(socket: String, control: SoakControl) {
        self.socket = socket
        self.control = control
    }

    func counts() -> Counts { state.withLock { $0 } }

    /// Starts the three clients; the group is done once all have stopped.
    func start() -> DispatchGroup {
        let group = DispatchGroup()
        for body in [stalled, churning, source] {
            group.enter()
            Thread { body(); group.leave() }.start()
        }
        return group
    }

    private var stopping: Bool { control.stop.load(ordering: .relaxed) }

    private func stalled() {
        var fd = try? RawFrameReaders.connect(socket, channels: [.frames, .strokes])
        while !stopping {
            guard let current = fd else {
                fd = try? RawFrameReaders.connect(socket, channels: [.frames, .strokes])
                usleep(100_000)
                continue
            }
            // penkitd closes a client that falls behind on strokes (`overflow`): the close shows as
            // a hang-up even with the client's unread bytes still queued.
            var watch = pollfd(fd: current, events: Self.pollReadHangUp, revents: 0)
            if poll(&watch, 1, 200) > 0, watch.revents & (Self.pollReadHangUp | Int16(POLLHUP | POLLERR)) != 0 {
                close(current)
                state.withLock { $0.stalledCutOff += 1 }
                fd = try? RawFrameReaders.connect(socket, channels: [.frames, .strokes])
            }
        }
        if let fd { close(fd) }
    }

    private func churning() {
        var next = MonotonicClock.now()
        while !stopping {
            if let fd = try? RawFrameReaders.connect(socket, channels: [.frames]) {
                close(fd)
                state.withLock { $0.churned += 1 }
            } else {
                state.withLock { $0.churnFailures += 1 }
            }
            next += 10_000
            MonotonicClock.sleep(until: max(next, MonotonicClock.now()))
        }
    }

    private func source() {
        let declare = PressureSourceRequest(device: 1, latency: 20_000, jitter: 10_000).jsonLine() + "\n"
        while !stopping {
            if let fd = Self.open(socket) {
                _ = declare.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
                if let answer = Self.answer(fd) { state.withLock { $0.sourcesAnswered += 1; $0.sourceAnswers.insert(answer) } }
                close(fd)
            }
            for _ in 0..<10 where !stopping { usleep(100_000) }
        }
    }

    /// POLLRDHUP, a GNU extension Swift's Glibc module leaves out.
    private static let pollReadHangUp: Int16 = 0x2000

    /// A plain connection whose reads give up after 5 s (an answer penkitd never sends).
    private static func open(_ path: String) -> Int32? {
        guard let fd = try? RawFrameReaders.open(path) else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// The source's answer after `hello`: the pressure-source state or the error's code.
    private static func answer(_ fd: Int32) -> String? {
        var answer: String?
        RawFrameReaders.scanLines(fd, headBytes: 256) { line, _ in
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix(#"{"type":"hello""#) { return true }
            if let range = text.range(of: #""code":""#) {
                answer = "error " + String(text[range.upperBound...].prefix { $0 != "\"" })
            } else if text.contains(#""state":"attached""#) {
                answer = "attached"
            } else {
                answer = String(text.prefix(40))
            }
            return false
        }
        return answer
    }
}
