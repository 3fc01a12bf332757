import Foundation
import PenKit
import Synchronization
import Testing

/// Per-client prediction horizons over a real socket: penkitd spawned on a replay, each client
/// asking for its own horizon in `subscribe`.
@Suite(.serialized)
struct DaemonPredictionTests {
    static let trace = "wacom-intuos4-6x9-stylus-drag.evemu"

    /// Contact frames: (sample time, µs from the sample to the last predicted sample, or nil
    /// when nothing was predicted, and whether the frame said how sure it was).
    private struct ContactFrame {
        var time: UInt64
        var reach: UInt64?
        var expectedError: Double?
        var liftProbability: Double?
    }

    private static func contactFrames(_ lines: [String]) -> [ContactFrame] {
        lines.filter { type($0) == "frame" }.map(object).filter { $0["stroke"] != nil }.map { frame in
            let time = ((frame["sample"] as? [String: Any])?["t"] as? NSNumber)?.uint64Value ?? 0
            let last = ((frame["predicted"] as? [[String: Any]])?.last?["t"] as? NSNumber)?.uint64Value
            return ContactFrame(time: time, reach: last.map { $0 - time },
                                expectedError: (frame["expectedError"] as? NSNumber)?.doubleValue,
                                liftProbability: (frame["liftProbability"] as? NSNumber)?.doubleValue)
        }
    }

    @Test func eachClientGetsTheHorizonItAskedFor() throws {
        // Paced, and with a deep live buffer: a client thread that a busy machine stalls for a
        // moment still loses no live frame, so every client sees the same frames.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("horizons-\(UUID().uuidString.prefix(8)).conf").path
        try "client-live-buffer-bytes = 1073741824\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--realtime", "--wait-clients", "4",
                                        "--exit-after-replay"], config: config)
        let requests = [#","predict":{"horizonMs":24}"#, "", #","predict":"none""#, #","predict":{"horizonMs":80}"#]
        // Each client connects, subscribes and reads on its own thread: a client left unread
        // would fall behind and lose live frames.
        let socket = daemon.socket
        let results = Mutex<[Int: Result<[String], Error>]>([:])
        let done = DispatchGroup()
        for i in requests.indices {
            done.enter()
            Thread {
                let result = Result { () throws -> [String] in
                    let client = try RawConnection(path: socket)
                    guard type(try client.readLine() ?? "") == "hello" else { throw TestFailure("no hello") }
                    try client.send(#"{"type":"subscribe","version":1,"channels":["frames"]"# + requests[i] + "}\n")
                    let subscribed = try client.readLine() ?? ""
                    guard type(subscribed) == "subscribed" else { throw TestFailure("not subscribed") }
                    return [subscribed] + (try client.readAll())
                }
                results.withLock { $0[i] = result }
                done.leave()
            }.start()
        }
        // Only bounds a failure: each read gives up on its own after 30 s without a line.
        _ = done.wait(timeout: .now() + 600)
        let lines = try (0..<requests.count).map { i in
            try (results.withLock { $0[i] } ?? .failure(TestFailure("client \(i) never finished"))).get()
        }
        // `subscribed` says what each client gets, the cap included.
        let inForce = lines.map { object($0[0])["predict"] }
        #expect((inForce[0] as? [String: Any])?["horizonMs"] as? Double == 24)
        #expect((inForce[1] as? [String: Any])?["horizonMs"] as? Double == 16)
        #expect(inForce[2] as? String == "none")
        #expect((inForce[3] as? [String: Any])?["horizonMs"] as? Double == 50)
        let frames = lines.map(Self.contactFrames)
        for received in frames { #expect(received.count > 20) }
        // 24 ms, the default 16 ms, none, and 80 ms capped at 50 ms: the last predicted sample lies
        // exactly there on every frame but those a predicted lift cut short.
        for (received, horizon) in [(frames[0], UInt64(24_000)), (frames[1], 16_000), (frames[3], 50_000)] {
            #expect(received.allSatisfy { ($0.reach ?? 0) <= horizon })
            let exact = received.filter { $0.reach == horizon }.count
            #expect(exact * 10 >= received.count * 9, "\(exact) of \(received.count) frames reach \(horizon) µs")
            #expect(received.allSatisfy { $0.reach == nil || ($0.expectedError != nil && $0.liftProbability != nil) })
        }
        #expect(frames[2].allSatisfy { $0.reach == nil && $0.expectedError == nil && $0.liftProbability == nil })
        // The same frames went to everyone (live frames are only dropped for a client that falls behind).
        let a = Set(frames[0].map(\.time)), b = Set(frames[1].map(\.time))
        #expect(a == b, "only in 24 ms: \(a.subtracting(b).count), only in default: \(b.subtracting(a).count) of \(a.count), \(b.count)")
        // Expected errors grow with the horizon asked for, frame by frame.
        let byTime = Dictionary(frames[1].map { ($0.time, $0.expectedError) }, uniquingKeysWith: { a, _ in a })
        let common = frames[0].filter { $0.expectedError != nil && byTime[$0.time]??.isFinite == true }
        let larger = common.filter { $0.expectedError! >= byTime[$0.time]!! }.count
        #expect(!common.isEmpty && larger * 10 >= common.count * 9)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func thePipelineAgeHorizonFollowsTheFramesAgePlusTheDisplayLatency() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--realtime", "--wait-clients", "1",
                                        "--exit-after-replay"])
        let client = try daemon.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        try client.send(#"{"type":"subscribe","version":1,"channels":["frames"],"predict":{"pipeline":true,"displayLatencyMs":8}}"# + "\n")
        #expect(type(try client.readLine() ?? "") == "subscribed")
        let received = Self.contactFrames(try client.readAll())
        #expect(received.count > 20)
        // At least the display latency ahead (the frame is some µs old when made), never past the cap.
        let predicted = received.compactMap(\.reach)
        #expect(predicted.count * 10 >= received.count * 9)
        let uncut = received.filter { ($0.liftProbability ?? 1) < 0.5 }.compactMap(\.reach)
        #expect(!uncut.isEmpty && uncut.allSatisfy { $0 >= 8_000 && $0 <= 50_000 })
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aMalformedPredictRequestIsRefusedClearly() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"])
        let client = try daemon.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        try client.send(#"{"type":"subscribe","version":1,"channels":["frames"],"predict":{"horizonMs":-3}}"# + "\n")
        let reply = try client.readLine() ?? ""
        #expect(type(reply) == "error")
        #expect((object(reply)["message"] as? String)?.contains("horizonMs") == true)
        #expect(daemon.stop() == 0)
    }
}
