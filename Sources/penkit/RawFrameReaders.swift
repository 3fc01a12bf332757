import ArgumentParser
import Foundation
import Glibc
import PenKit
import Synchronization

/// Unpaced throughput as penkitd delivers it: N plain socket readers, each on its own
/// thread, reading big chunks and counting frame lines, so that what is measured is
/// penkitd and not a client library's per-line work.
enum RawFrameReaders {
    struct Count: Sendable {
        var frames = 0
        var dropped: UInt64 = 0
        var seconds = 0.0
        var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    }

    /// Connects `readers` clients to `socket`, subscribes them to frames, and counts for `seconds`
    /// from each one's first frame.
    static func measure(socket: String, readers: Int, seconds: Double, frames: Int = .max) throws -> [Count] {
        let fds = try (0..<readers).map { _ in try connect(socket, channels: [.frames]) }
        let results = Mutex<[Count]>([])
        let done = DispatchSemaphore(value: 0)
        for fd in fds {
            let thread = Thread {
                let count = read(fd, seconds: seconds, frames: frames)
                results.withLock { $0.append(count) }
                done.signal()
            }
            thread.start()
        }
        for _ in fds { done.wait() }
        for fd in fds { close(fd) }
        return results.withLock { $0 }
    }

    /// Subscribes to strokes and reads until the first finalized stroke; returns its line's length.
    static func waitForStroke(socket: String) throws -> Int {
        let fd = try connect(socket, channels: [.strokes])
        defer { close(fd) }
        let prefix = Array(#"{"type":"stroke""#.utf8)
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var line: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { throw ValidationError("penkitd closed the connection before the stroke") }
            for b in buffer[..<n] {
                if b == UInt8(ascii: "\n") {
                    if line.starts(with: prefix) { return line.count + 1 }
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(b)
                }
            }
        }
    }

    private static func connect(_ path: String, channels: ChannelSet) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, result == 0 else { throw ValidationError("cannot connect to \(path)") }
        var request = SubscribeRequest(channels: channels).jsonBytes()
        request.append(UInt8(ascii: "\n"))
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    private static func read(_ fd: Int32, seconds: Double, frames: Int) -> Count {
        let framePrefix = Array(#"{"type":"frame""#.utf8)
        let droppedPrefix = Array(#"{"type":"dropped","frames":"#.utf8)
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var line: [UInt8] = []  // the start of the current line, enough to classify it
        var atLineStart = true
        var count = Count()
        var first: UInt64 = 0
        var last: UInt64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            let now = monotonicMicroseconds()
            for i in 0..<n {
                let b = buffer[i]
                if atLineStart { line.removeAll(keepingCapacity: true); atLineStart = false }
                if line.count < 40 { line.append(b) }
                if line.count == framePrefix.count, line == framePrefix {
                    count.frames += 1
                    if first == 0 { first = now }
                    last = now
                }
                if b == UInt8(ascii: "\n") {
                    if line.starts(with: droppedPrefix) {
                        var value: UInt64 = 0
                        for d in line.dropFirst(droppedPrefix.count) {
                            guard d >= 48, d <= 57 else { break }
                            value = value * 10 + UInt64(d - 48)
                        }
                        count.dropped += value
                    }
                    atLineStart = true
                }
            }
            if first > 0, Double(now - first) / 1e6 > seconds || count.frames >= frames { break }
        }
        count.seconds = Double(last - first) / 1e6
        return count
    }
}
