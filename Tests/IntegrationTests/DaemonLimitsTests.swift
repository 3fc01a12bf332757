import Foundation
import PenInput
import PenKit
import Testing

/// Reload, connection limit, what `hello` says about the input, real-time timers, and the
/// Swift client's bound: each against a spawned penkitd over real sockets.
@Suite(.serialized)
struct DaemonLimitsTests {
    static let multiStrokeTrace = "wacom-dth2242-pen.evemu"
    /// A tablet that never sends BTN_TOOL_PEN: every hover ends with libinput's forced proximity-out.
    static let geniusTrace = "genius-easypen-i405x.evemu"

    @Test func sighupAppliesANewLogLevelAndSocketMode() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "log-level = warning\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess([], config: config, logLevel: nil)
        func connectAndSubscribe() throws -> RawConnection {
            let client = try daemon.connect()
            #expect(type(try client.readLine() ?? "") == "hello")
            try client.subscribe(["strokes"])
            // `subscribed` comes after the server has logged the connection (same event loop).
            #expect(type(try client.readLine() ?? "") == "subscribed")
            return client
        }
        func connections() -> Int { daemon.log.components(separatedBy: "client connected").count - 1 }

        let first = try connectAndSubscribe()
        #expect(connections() == 0, "info lines must not appear at level warning")

        func socketMode() -> Int { ((try? FileManager.default.attributesOfItem(atPath: daemon.socket))?[.posixPermissions] as? Int) ?? -1 }
        #expect(socketMode() == 0o660)

        try "log-level = debug\nsocket-mode = 0600\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reloaded") }
        let second = try connectAndSubscribe()
        #expect(connections() == 1, "info lines appear after the reload to debug")
        #expect(socketMode() == 0o600, "socket-mode is re-applied to the socket file")

        // Back to warning, with a setting that needs a restart: that is logged (as a warning).
        try "log-level = warning\nsmoothing = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("takes effect after a restart") }
        #expect(daemon.log.contains("key=smoothing"))
        let third = try connectAndSubscribe()
        #expect(connections() == 1, "info lines stop again after the reload to warning")
        _ = (first, second, third)
        #expect(daemon.stop() == 0)
    }

    @Test func aConnectionOverMaxClientsGetsAnErrorAndOthersAreServed() throws {
        let daemon = try DaemonProcess(["--max-clients", "2"])
        let a = try daemon.connect()
        let b = try daemon.connect()
        #expect(type(try a.readLine() ?? "") == "hello")
        #expect(type(try b.readLine() ?? "") == "hello")

        let over = try daemon.connect()
        let lines = try over.readAll()
        #expect(lines.count == 1, "\(lines)")
        let error = object(lines.first ?? "")
        #expect(error["type"] as? String == "error")
        #expect(error["code"] as? String == "too_many_clients")
        #expect(error["fatal"] as? Bool == true)

        // The two served clients are unaffected.
        for client in [a, b] {
            try client.subscribe(["strokes"])
            #expect(type(try client.readLine() ?? "") == "subscribed")
        }
        // A freed place is taken by the next connection.
        shutdown(a.fd, Int32(SHUT_RDWR))
        try waitFor { daemon.log.contains("client disconnected") }
        let next = try daemon.connect()
        #expect(type(try next.readLine() ?? "") == "hello")
        #expect(daemon.log.contains("too many clients"))
        #expect(daemon.stop() == 0)
    }

    @Test func helloSaysWhetherTheInputIsLiveOrAReplay() throws {
        let trace = tracePath(Self.multiStrokeTrace)
        let replaying = try DaemonProcess(["--replay", trace])
        let settings = object(try replaying.connect().readLine() ?? "")["settings"] as? [String: String] ?? [:]
        #expect(settings["input"] == "replay")
        #expect(settings["replay"] == trace)
        #expect(settings["realtime"] == "false")
        #expect(settings["smoothing"] == "true", "the replay decoder's default")
        let stopped = replaying.stop()
        #expect(stopped == 0, "\(replaying.log)")

        let live = try DaemonProcess([])
        let liveSettings = object(try live.connect().readLine() ?? "")["settings"] as? [String: String] ?? [:]
        #expect(liveSettings["input"] == "live")
        #expect(liveSettings["replay"] == nil)
        #expect(liveSettings["smoothing"] == "libinput-quirks", "live smoothing is libinput's per-device quirk")
        #expect(live.stop() == 0)
    }

    /// libinput fires the forced proximity-out from a timer 50 ms after the last event, without
    /// waiting for input. In a real-time replay (event times on CLOCK_MONOTONIC, the clock of
    /// `monotonicMicroseconds`) the message must therefore reach a client no earlier than its
    /// own `t` (fired ahead of time, it would carry a time still in the future), and before the
    /// time of the trace's next event (sent with the next event, it could only arrive after it).
    @Test func aRealtimeReplaySendsTheForcedProximityOutAtItsOwnTime() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.geniusTrace), "--realtime",
                                        "--wait-clients", "1", "--exit-after-replay"])
        let client = try daemon.connect()
        try client.subscribe(["frames"])
        var received: [(line: [String: Any], at: UInt64)] = []
        while let line = try client.readLine() {
            received.append((object(line), MonotonicClock.now()))
        }
        // Each proximity-out, the message after it (the next event's), and when the out arrived.
        var outs: [(t: UInt64, next: UInt64, arrived: UInt64)] = []
        for (index, entry) in received.enumerated()
        where entry.line["type"] as? String == "proximity" && entry.line["state"] as? String == "out" {
            guard let t = (entry.line["t"] as? NSNumber)?.uint64Value,
                  let next = received[(index + 1)...].lazy.compactMap({ ($0.line["t"] as? NSNumber)?.uint64Value }).first
            else { continue }
            outs.append((t, next, entry.at))
        }
        // The trace's hovers end this way (14 times by the decoder's account; at least several).
        #expect(outs.count >= 10, "\(outs.count) proximity-outs followed by an event")
        #expect(outs.allSatisfy { $0.t < $0.next })
        let premature = outs.filter { $0.arrived < $0.t }
        #expect(premature.isEmpty, "proximity-outs received before their own time: \(premature)")
        // Where the trace is quiet for 50 ms more after the timer (4 hovers), delivery has that
        // much time to beat the next event; one such arrival is enough to show the timer fired on
        // its own (a scheduling hiccup on a loaded host may delay the others).
        let roomy = outs.filter { $0.next - $0.t >= 50_000 }
        #expect(roomy.count >= 3)
        let early = roomy.filter { $0.arrived < $0.next }
        #expect(!early.isEmpty, "no forced proximity-out arrived before the next event: \(roomy)")
        #expect(daemon.waitForExit() == 0)
    }

    /// `--realtime --loop` starts each pass one span (the trace's length plus a second of quiet)
    /// after the previous one, by the frames' own times.
    @Test func aRealtimeLoopStartsEachPassOneSpanLater() throws {
        let trace = "wacom-intuos4-6x9-stylus-tap.evemu"
        let loaded = try TraceFile.load(path: tracePath(trace))
        let times = loaded.devices.flatMap { $0.events.map(\.time) }
        let span = (times.max() ?? 0) - (times.min() ?? 0) + 1_000_000
        // Room for every live message: a client slowed by a busy host must not lose the
        // proximity-in that starts a pass (live messages are dropped for a client that lags).
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "client-live-buffer-bytes = 16777216\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--realtime", "--loop", "--wait-clients", "1"],
                                       config: config)
        let client = try daemon.connect()
        try client.subscribe(["frames"])
        var first: UInt64?
        var second: UInt64?
        var previous: UInt64 = 0
        var dropped = 0
        while second == nil, let line = try client.readLine(timeout: 10) {
            if object(line)["type"] as? String == "dropped" { dropped += 1 }
            guard let t = (object(line)["t"] as? NSNumber)?.uint64Value else { continue }
            if first == nil { first = t } else if t > previous + 900_000 { second = t }
            previous = t
        }
        #expect(dropped == 0)
        let start = try #require(first), next = try #require(second)
        // The first message of each pass comes from the same trace event, so the passes are
        // span apart, plus however late the replay thread woke (never half a span).
        #expect(next - start >= span)
        #expect(next - start < span + span / 2, "passes \(next - start) µs apart; span \(span) µs")
        #expect(daemon.stop() == 0)
    }

    /// A client that floods requests and never reads the replies: penkitd stops reading it once
    /// its reply buffer is full, so neither side's buffers grow without bound; others are served.
    @Test func aClientThatSendsButNeverReadsIsNotReadWithoutBound() throws {
        let daemon = try DaemonProcess([])
        let flooder = try daemon.connect()
        // 100-byte malformed lines, ~90-byte error replies: 20 MB of them would leave ~18 MB of
        // replies buffered in penkitd if it kept reading.
        let line = Array((String(repeating: "x", count: 99) + "\n").utf8)
        let chunk = Array([[UInt8]](repeating: line, count: 640).joined())  // 64 000 bytes
        let goal = 20_000_000
        var accepted = 0
        // Paused, penkitd reads nothing more until this client reads: sending then makes no
        // progress at all. A penkitd that kept reading would keep taking bytes.
        var lastProgress = Date()
        var stalled = false
        let deadline = Date().addingTimeInterval(15)
        while accepted < goal, Date() < deadline {
            let n = chunk.withUnsafeBytes { send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 {
                accepted += n
                lastProgress = Date()
            } else if errno == EAGAIN {
                if Date().timeIntervalSince(lastProgress) > 1 { stalled = true; break }
                usleep(10_000)
            } else {
                break
            }
        }
        #expect(stalled, "penkitd kept reading a client that reads nothing (\(accepted) bytes)")
        // What the kernel's socket buffers, a few NIO reads and the 64 KiB reply buffer can hold.
        #expect(accepted < 4_000_000, "penkitd took \(accepted) bytes from a client that reads nothing")
        let other = try daemon.connect()
        #expect(type(try other.readLine() ?? "") == "hello")
        try other.subscribe(["strokes"])
        #expect(type(try other.readLine() ?? "") == "subscribed")
        // Once the flooder reads, it is served again: hello, then an error per line.
        #expect(type(try flooder.readLine() ?? "") == "hello")
        let reply = object(try flooder.readLine() ?? "")
        #expect(reply["code"] as? String == "malformed")
        #expect(daemon.stop() == 0)
    }

    /// The app stops iterating: the client must stop reading (so penkitd's rules apply: frames
    /// dropped, strokes kept until `overflow`), then deliver a gapless run of strokes, the fatal
    /// `overflow`, and end.
    @Test func aSwiftClientThatIsNotIteratedStopsReadingAndEndsWithOverflow() async throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace), "--loop",
                                        "--wait-clients", "1", "--client-buffer-bytes", "16384",
                                        "--history-strokes", "100000"])
        let client = try PenKitClient(path: daemon.socket, bufferLines: 16)
        try client.subscribe([.frames, .strokes])
        // Nobody iterates; an unbounded client would read on and penkitd would never see it fall behind.
        try waitFor(timeout: 60) { daemon.log.contains("client fell behind") }
        var seqs: [UInt64] = []
        var errors: [(code: String, fatal: Bool)] = []
        var thrown: Error?
        do {
            for try await message in client.messages {
                switch message {
                case .engine(.stroke(let stroke)): seqs.append(stroke.seq)
                case .error(let code, _, let fatal): errors.append((code, fatal))
                case .overflow(let lastSentSeq, _):
                    errors.append(("overflow", message.isFatal))
                    #expect(lastSentSeq == seqs.last, "overflow names \(String(describing: lastSentSeq)) as the last stroke sent")
                default: break
                }
            }
        } catch {
            thrown = error
        }
        #expect(thrown == nil, "\(String(describing: thrown))")
        #expect(!seqs.isEmpty)
        #expect(seqs == Array(1...UInt64(max(seqs.count, 1))))
        #expect(errors.count == 1)
        #expect(errors.first?.code == "overflow")
        #expect(errors.first?.fatal == true)
        #expect(daemon.stop() == 0)
    }

    /// A connection that ends without `shutdown` or a fatal error may have lost strokes: the
    /// sequence throws instead of ending quietly.
    @Test func aSwiftClientWhoseServerVanishesThrows() async throws {
        let daemon = try DaemonProcess([])
        let client = try PenKitClient(path: daemon.socket)
        try client.subscribe([.strokes])
        var sawHello = false
        await #expect(throws: PenKitClient.Error.self) {
            for try await message in client.messages {
                if case .hello = message {
                    sawHello = true
                    daemon.signal(SIGKILL)
                }
            }
        }
        #expect(sawHello)
        // And a client that disconnects itself ends quietly.
        let quiet = try DaemonProcess([])
        let leaving = try PenKitClient(path: quiet.socket)
        for try await message in leaving.messages {
            if case .hello = message { leaving.disconnect() }
        }
        #expect(quiet.stop() == 0)
    }
}
