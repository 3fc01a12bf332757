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

    /// Latency as plain reader threads see it (the floor's readers, reading penkitd instead):
    /// each frame's arrival minus its sample's event time, and the frames penkitd reported
    /// dropped, per reader, until `deadline` (CLOCK_MONOTONIC µs).
    static func latencies(socket: String, readers: Int, until deadline: UInt64) throws -> [(samples: [UInt64], dropped: UInt64)] {
        let fds = try (0..<readers).map { _ in try connect(socket, channels: [.frames]) }
        let results = Mutex<[(samples: [UInt64], dropped: UInt64)]>([])
        let done = DispatchSemaphore(value: 0)
        for fd in fds {
            let thread = Thread {
                let framePrefix = Array(#"{"type":"frame""#.utf8)
                let droppedPrefix = Array(#"{"type":"dropped","frames":"#.utf8)
                let timeKey = Array(#""t":"#.utf8)
                var samples: [UInt64] = []
                var dropped: UInt64 = 0
                scanLines(fd, headBytes: 1024) { line, now in
                    if line.starts(with: framePrefix), let at = find(timeKey, in: line),
                       let t = unsigned(after: at + timeKey.count, in: line) {
                        samples.append(now >= t ? now - t : 0)
                    } else if line.starts(with: droppedPrefix) {
                        dropped += unsigned(after: droppedPrefix.count, in: line) ?? 0
                    }
                    return now <= deadline
                }
                results.withLock { $0.append((samples, dropped)) }
                done.signal()
            }
            thread.start()
        }
        for _ in fds { done.wait() }
        for fd in fds { close(fd) }
        return results.withLock { $0 }
    }

    /// Where `needle` first occurs in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if needle.indices.allSatisfy({ bytes[i + $0] == needle[$0] }) { return i }
        }
        return nil
    }

    /// Subscribes to strokes (in parts when asked) and reads until the first finalized stroke is complete;
    /// returns the bytes of its lines, the longest of them, and when its first and last lines came,
    /// in ms after subscribing (the replay's own time included: it starts once this client is in).
    static func waitForStroke(socket: String, strokeParts: Bool = false)
        throws -> (bytes: Int, longestLine: Int, firstLineMilliseconds: Double, lastLineMilliseconds: Double) {
        let fd = try connect(socket, channels: [.strokes], strokeParts: strokeParts)
        defer { close(fd) }
        let start = MonotonicClock.now()
        var first: UInt64?
        // `strokePart` lines share the prefix; the stroke is complete at its `stroke` line.
        let part = Array(#"{"type":"stroke"#.utf8)
        let closing = Array(#"{"type":"stroke""#.utf8)
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var line: [UInt8] = []
        var bytes = 0
        var longest = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { throw ValidationError("penkitd closed the connection before the stroke") }
            for b in buffer[..<n] {
                if b == UInt8(ascii: "\n") {
                    if line.starts(with: part) {
                        bytes += line.count + 1
                        longest = max(longest, line.count + 1)
                        if first == nil { first = MonotonicClock.now() }
                    }
                    if line.starts(with: closing) {
                        let milliseconds = { (time: UInt64) in Double(time &- start) / 1000 }
                        return (bytes, longest, milliseconds(first ?? start), milliseconds(MonotonicClock.now()))
                    }
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(b)
                }
            }
        }
    }

    /// A connection to penkitd's socket, subscribed to `channels`.
    static func connect(_ path: String, channels: ChannelSet, strokeParts: Bool = false) throws -> Int32 {
        let fd = try open(path)
        var request = SubscribeRequest(channels: channels, strokeParts: strokeParts).jsonBytes()
        request.append(UInt8(ascii: "\n"))
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// A plain connection to penkitd's socket (a source's, or one that only reads `hello`).
    static func open(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ValidationError("cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw ValidationError("cannot connect to \(path)")
        }
        return fd
    }

    private static func read(_ fd: Int32, seconds: Double, frames: Int) -> Count {
        let framePrefix = Array(#"{"type":"frame""#.utf8)
        let droppedPrefix = Array(#"{"type":"dropped","frames":"#.utf8)
        var count = Count()
        var first: UInt64 = 0
        var last: UInt64 = 0
        scanLines(fd, headBytes: 64) { line, now in
            if line.starts(with: framePrefix) {
                count.frames += 1
                if first == 0 { first = now }
                last = now
            } else if line.starts(with: droppedPrefix) {
                count.dropped += unsigned(after: droppedPrefix.count, in: line) ?? 0
            }
            return first == 0 || (Double(now - first) / 1e6 <= seconds && count.frames < frames)
        }
        count.seconds = Double(last - first) / 1e6
        return count
    }

    /// The decimal number at `offset` in `bytes`, if digits start there.
    static func unsigned(after offset: Int, in bytes: UnsafeRawBufferPointer) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        for d in bytes.dropFirst(offset) {
            guard d >= 48, d <= 57 else { break }
            value = value &* 10 &+ UInt64(d - 48)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Reads `fd` in big chunks and hands `line` each line's first bytes (at most `headBytes`; the
    /// whole line if shorter) with the time its chunk arrived, until `line` returns false or the
    /// socket ends. memchr finds the newlines, so the reader costs little next to penkitd. A
    /// line's start that a chunk cuts off short of `headBytes` is moved to the buffer's front
    /// and completed by the next read.
    static func scanLines(_ fd: Int32, headBytes: Int, _ line: (UnsafeRawBufferPointer, UInt64) -> Bool) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!
        var kept = 0  // bytes of a partial line at the buffer's front, not handed over yet
        var skipping = false  // inside a line already handed over, up to its newline
        while true {
            let n = recv(fd, base + kept, buffer.count - kept, 0)
            if n <= 0 { return }
            let now = MonotonicClock.now()
            let end = kept + n
            var start = 0
            var goOn = true
            kept = 0
            while start < end {
                guard let newline = memchr(base + start, 10, end - start) else {
                    if skipping { break }
                    if end - start >= headBytes {
                        goOn = line(UnsafeRawBufferPointer(start: base + start, count: headBytes), now) && goOn
                        skipping = true
                    } else {
                        memmove(base, base + start, end - start)
                        kept = end - start
                    }
                    break
                }
                let length = UnsafeRawPointer(newline) - UnsafeRawPointer(base + start)
                if skipping {
                    skipping = false
                } else {
                    goOn = line(UnsafeRawBufferPointer(start: base + start, count: min(length, headBytes)), now) && goOn
                }
                start += length + 1
            }
            if !goOn { return }
        }
    }
}
