import Foundation
import Synchronization
import Testing

/// 64 clients, one that never reads and one that floods garbage, while a trace replays unpaced:
/// every well-behaved client gets every finalized stroke with contiguous seq, and penkitd's
/// memory stays bounded (its peak RSS is printed).
@Suite(.serialized)
struct LoadTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"

    @Test func sixtyFourClientsGetEveryStrokeDespiteAStalledAndAFloodingClient() throws {
        let readers = 64
        let strokes = 3 * (try tipDowns(in: Self.trace))  // three passes of the loop
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "\(readers + 1)",
                                        "--max-clients", "\(readers + 8)", "--log-level", "warning"], logLevel: nil)
        let stalled = try daemon.connect()
        try stalled.subscribe(["frames", "strokes", "updates", "buttons", "devices"])  // and never reads
        let stop = Atomic<Bool>(false)
        let socket = daemon.socket
        let flooded = DispatchSemaphore(value: 0)
        let flooder = Thread { flood(socket, until: stop); flooded.signal() }
        flooder.start()
        defer { stop.store(true, ordering: .relaxed) }  // also when the test throws early

        let results = Mutex<[[UInt64]]>([])
        let failures = Mutex<[String]>([])
        let clients = try (0..<readers).map { _ in try daemon.connect() }
        for client in clients { try client.subscribe(["strokes"]) }
        var peakRSS = 0
        let done = DispatchGroup()
        for connection in clients {
            done.enter()
            // Each connection is read by its thread only, after this hand-off.
            nonisolated(unsafe) let client = connection
            Thread {
                defer { done.leave() }
                var seqs: [UInt64] = []
                do {
                    while seqs.count < strokes, let line = try client.readLine(timeout: 120) {
                        if line.hasPrefix(#"{"type":"stroke","seq":"#), let s = leadingSeq(line) { seqs.append(s) }
                        else if line.hasPrefix(#"{"type":"error""#) { failures.withLock { $0.append(line) } }
                    }
                } catch { failures.withLock { $0.append("\(error)") } }
                results.withLock { $0.append(seqs) }
            }.start()
        }
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            peakRSS = max(peakRSS, residentKiB(daemon.process.processIdentifier))
        }
        stop.store(true, ordering: .relaxed)
        flooded.wait()
        print("load: \(readers) readers + 1 stalled + 1 flooding, unpaced replay: penkitd peak RSS \(peakRSS / 1024) MiB")
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        let all = results.withLock { $0 }
        #expect(all.count == readers)
        for seqs in all { #expect(seqs == Array(1...UInt64(strokes))) }
        // Bounded: the per-client stroke queue limit (4 MiB) for the stalled client, the history and NIO's buffers.
        #expect(peakRSS > 0 && peakRSS < 512 * 1024)
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
    }
}

/// Sends garbage lines (and now and then one too long) as fast as penkitd takes them,
/// reconnecting when it is cut off, until `stop`.
private func flood(_ socket: String, until stop: borrowing Atomic<Bool>) {
    var generator = SystemRandomNumberGenerator()
    while !stop.load(ordering: .relaxed) {
        guard let connection = try? RawConnection(path: socket) else { return }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(connection.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while !stop.load(ordering: .relaxed) {
            let length = Int.random(in: 1...(Int.random(in: 0..<50, using: &generator) == 0 ? 70_000 : 200), using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.append(UInt8(ascii: "\n"))
            let sent = bytes.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK { break }
        }
    }
}

/// The seq of a `{"type":"stroke","seq":N,…` line, read without a JSON parser (64 readers share the host with penkitd).
private func leadingSeq(_ line: String) -> UInt64? {
    let digits = line.utf8.dropFirst(#"{"type":"stroke","seq":"#.utf8.count).prefix { $0 >= 48 && $0 <= 57 }
    return UInt64(String(decoding: digits, as: UTF8.self))
}

/// VmRSS of `pid` in KiB (0 if unreadable).
func residentKiB(_ pid: Int32) -> Int {
    guard let status = readProcFile("/proc/\(pid)/status"),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
}
