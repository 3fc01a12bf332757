import Foundation
import PenKit
import Testing

/// penkitd spawned on a temporary socket, driven by real clients over real sockets.
@Suite(.serialized)
struct DaemonSocketTests {
    static let multiStrokeTrace = "wacom-dth2242-pen.evemu"
    static let oneStrokeTrace = "wacom-intuos4-6x9-stylus-drag.evemu"

    @Test func severalClientsReceiveEveryStrokeInOrder() throws {
        let expected = try tipDowns(in: Self.multiStrokeTrace)
        #expect(expected > 1)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace),
                                        "--wait-clients", "3", "--exit-after-replay"])
        let clients = try (0..<3).map { _ in try daemon.connect() }
        for client in clients {
            #expect(type(try client.readLine() ?? "") == "hello")
            try client.subscribe(["strokes", "devices"])
        }
        var received: [[String]] = []
        for client in clients {
            let lines = try client.readAll()
            received.append(lines.filter { type($0) == "stroke" })
            #expect(type(lines.last ?? "") == "shutdown")
            #expect(lines.contains { type($0) == "device" && object($0)["change"] as? String == "removed" })
        }
        #expect(received[0].count == expected)
        #expect(received[0].compactMap(seq) == Array(1...UInt64(expected)))
        #expect(received[1] == received[0])
        #expect(received[2] == received[0])
        #expect(daemon.waitForExit() == 0)
    }

    @Test func resumeWithSinceReplaysTheStrokesAfterThatSequenceNumber() throws {
        let expected = try tipDowns(in: Self.multiStrokeTrace)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace), "--wait-clients", "1"])
        let first = try daemon.connect()
        try first.subscribe(["strokes"])
        var all: [String] = []
        while all.count < expected, let line = try first.readLine() {
            if type(line) == "stroke" { all.append(line) }
        }
        #expect(all.count == expected)

        let since = expected / 2
        let resumed = try daemon.connect()
        #expect(type(try resumed.readLine() ?? "") == "hello")
        try resumed.subscribe(["strokes"], since: UInt64(since))
        let subscribed = try resumed.readLine() ?? ""
        #expect(type(subscribed) == "subscribed")
        #expect((object(subscribed)["replaying"] as? NSNumber)?.intValue == expected - since)
        var replayed: [String] = []
        while replayed.count < expected - since, let line = try resumed.readLine() { replayed.append(line) }
        #expect(replayed == Array(all[since...]))
        #expect(daemon.stop() == 0)
    }

    @Test func aStoppedClientOverflowsWhileAnotherKeepsUpAndCanResume() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace), "--loop",
                                        "--wait-clients", "2", "--client-buffer-bytes", "16384",
                                        "--history-strokes", "100000"])
        let stopped = try daemon.connect()
        let reader = try daemon.connect()
        try stopped.subscribe(["strokes"])
        try reader.subscribe(["strokes"])
        // The reader keeps up: 150 strokes, numbered without a gap, no error.
        var seqs: [UInt64] = []
        while seqs.count < 150, let line = try reader.readLine() {
            #expect(type(line) != "error", "\(line)")
            if let s = seq(line), type(line) == "stroke" { seqs.append(s) }
        }
        #expect(seqs == Array(1...150))
        // The stopped client now reads: a gapless prefix, then a fatal overflow, then the end.
        let lines = try stopped.readAll()
        let strokes = lines.filter { type($0) == "stroke" }.compactMap(seq)
        #expect(!strokes.isEmpty)
        #expect(strokes == Array(1...UInt64(strokes.count)))
        let last = object(lines.last ?? "")
        #expect(last["type"] as? String == "error")
        #expect(last["code"] as? String == "overflow")
        #expect(last["fatal"] as? Bool == true)
        #expect(strokes.count < 150, "the stopped client got \(strokes.count) strokes")
        // Resuming with `since` continues exactly after the last stroke it got.
        let resumed = try daemon.connect()
        try resumed.subscribe(["strokes"], since: UInt64(strokes.count))
        var next: UInt64?
        while next == nil, let line = try resumed.readLine() {
            if type(line) == "stroke" { next = seq(line) }
        }
        #expect(next == UInt64(strokes.count + 1))
        #expect(daemon.stop() == 0)
    }

    @Test func aClientDisconnectingMidStrokeDisturbsNoOne() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.oneStrokeTrace), "--realtime",
                                        "--wait-clients", "2", "--exit-after-replay"])
        let leaver = try daemon.connect()
        let stayer = try daemon.connect()
        try leaver.subscribe(["frames"])
        try stayer.subscribe(["frames", "strokes"])
        _ = try leaver.read(until: { type($0) == "began" })
        // Mid-stroke: the leaver vanishes without a word.
        shutdown(leaver.fd, Int32(SHUT_RDWR))
        let lines = try stayer.readAll()
        let strokes = lines.filter { type($0) == "stroke" }
        #expect(strokes.count == 1)
        #expect((object(strokes[0])["stroke"] as? [String: Any])?["cancelled"] as? Bool == false)
        #expect(type(lines.last ?? "") == "shutdown")
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.log.contains("client disconnected"))
    }

    @Test func malformedInputGetsErrorsAndDisturbsNoOtherClient() throws {
        let expected = try tipDowns(in: Self.multiStrokeTrace)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace),
                                        "--wait-clients", "1", "--exit-after-replay"])
        let bad = try daemon.connect()
        #expect(type(try bad.readLine() ?? "") == "hello")
        let cases: [(String, String)] = [
            ("this is not json\n", "malformed"),
            ("[1,2,3]\n", "malformed"),
            ("{\"type\":\"subscribe\",\"version\":99}\n", "unsupported_version"),
            ("{\"type\":\"subscribe\",\"version\":1,\"channels\":[\"nope\"]}\n", "unknown_request"),
            ("{\"type\":\"fly\"}\n", "unknown_request"),
            ("{\"type\":\"subscribe\",\"version\":1,\"since\":-4}\n", "malformed"),
            ("{\"type\":\"subscribe\",\"version\":1,\"since\":null}\n", "malformed"),
        ]
        for (line, code) in cases {
            try bad.send(line)
            let reply = object(try bad.readLine() ?? "")
            #expect(reply["type"] as? String == "error", "\(line)")
            #expect(reply["code"] as? String == code, "\(line)")
            #expect(reply["fatal"] as? Bool == false, "\(line)")
        }
        try bad.send(String(repeating: "x", count: PenProtocol.maxLineBytes + 10))
        let fatal = object(try bad.readLine() ?? "")
        #expect(fatal["code"] as? String == "line_too_long")
        #expect(fatal["fatal"] as? Bool == true)
        #expect(try bad.readLine() == nil)

        let good = try daemon.connect()
        try good.subscribe(["strokes"])
        let lines = try good.readAll()
        #expect(lines.filter { type($0) == "stroke" }.count == expected)
        #expect(!lines.contains { type($0) == "error" })
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aPeerUnderAnotherUserIsRefused() throws {
        let daemon = try DaemonProcess([], socketMode: "0666")
        // nobody may open the socket file (mode 0666) but is not an allowed peer.
        let result = try runAsNobody(["/usr/bin/python3", repositoryRoot + "/examples/penkit_client.py", "--socket", daemon.socket])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("refused"))
        // An allowed client is still served.
        let allowed = try daemon.connect()
        #expect(type(try allowed.readLine() ?? "") == "hello")
        #expect(daemon.log.contains("refused peer"))
        #expect(daemon.stop() == 0)
    }

    @Test func sigtermDuringAStrokeCancelsItAndTellsClients() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.oneStrokeTrace), "--realtime", "--wait-clients", "1"])
        let client = try daemon.connect()
        try client.subscribe(["frames", "strokes"])
        let began = try client.read(until: { type($0) == "began" })
        #expect(type(began.last ?? "") == "began")
        daemon.signal(SIGTERM)
        let rest = try client.readAll()
        let ended = rest.first { type($0) == "ended" }.map(object)
        #expect(ended?["cancelled"] as? Bool == true)
        let stroke = rest.first { type($0) == "stroke" }.map(object)
        #expect((stroke?["stroke"] as? [String: Any])?["cancelled"] as? Bool == true)
        #expect(type(rest.last ?? "") == "shutdown")
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test func thePythonClientPrintsEveryStroke() throws {
        let expected = try tipDowns(in: Self.multiStrokeTrace)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace),
                                        "--wait-clients", "1", "--exit-after-replay"])
        let result = try run(["/usr/bin/python3", repositoryRoot + "/examples/penkit_client.py",
                              "--socket", daemon.socket, "--since", "0"])
        #expect(result.status == 0, "\(result.output)")
        let strokeLines = result.output.split(separator: "\n").filter { $0.hasPrefix("stroke #") }
        #expect(strokeLines.count == expected)
        #expect(strokeLines.first?.hasPrefix("stroke #1 ") == true)
        #expect(result.output.contains("penkitd stopped"))
        #expect(daemon.waitForExit() == 0)
    }

    @Test func theSwiftClientDeliversTypedMessages() async throws {
        let expected = try tipDowns(in: Self.multiStrokeTrace)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.multiStrokeTrace),
                                        "--wait-clients", "1", "--exit-after-replay"])
        let client = try PenKitClient(path: daemon.socket)
        try client.subscribe([.strokes, .devices])
        var hello = false, devices = 0, removed = 0, strokes: [FinalizedStroke] = [], shutdown = false
        for try await message in client.messages {
            switch message {
            case .hello(let message):
                hello = message.version == 1
                devices = message.devices.count
            case .device(let change) where change.change == .removed: removed += 1
            case .engine(.stroke(let stroke)): strokes.append(stroke)
            case .shutdown: shutdown = true
            default: break
            }
        }
        #expect(hello)
        #expect(devices == 1)
        #expect(removed == 1)
        #expect(strokes.count == expected)
        #expect(strokes.allSatisfy { !$0.stroke.points.isEmpty })
        #expect(shutdown)
    }
}

struct RunResult {
    var status: Int32
    var output: String
}

func run(_ command: [String]) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}

/// Runs a command as the unprivileged user nobody (the tests run as root here).
func runAsNobody(_ command: [String]) throws -> RunResult {
    try run(["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command)
}
