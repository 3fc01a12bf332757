import Foundation
import PenKit
import Testing

/// A slow reader of long strokes cut off at shutdown picks up after penkitd's restart with every
/// stroke it had not taken, the one it was cut off in included, and none twice (issue #44, item 4).
/// penkitd loops a one-stroke trace whose stroke is a 114 KB line until far more strokes wait than
/// the kernel's socket buffers hold; then SIGTERM. A fast reader gets them all, then `shutdown`
/// with `lastSentSeq`; two readers that took nothing until penkitd had exited (PenKitClient and
/// the Python client) are cut off after the grace. penkitd starts again on the same socket and
/// state directory, and each resumes with `since`.
@Suite(.serialized)
struct ShutdownResumeTests {
    static let trace = "wacom-intuos4-6x9-stylus-drag.evemu"
    /// Strokes queued before SIGTERM: 40 × 114 KB is far beyond a Unix socket's buffers (~200 KB).
    static let strokesBeforeStop = 40

    @Test func aReaderCutOffInALongStrokeResumesWithSinceAfterTheRestart() async throws {
        let state = try StateDirectoryFixture()
        // Every queued stroke stays queued (no overflow before the stop): the cut-off is the shutdown's.
        let directory = try TemporaryDirectory()
        let config = directory.path + "/penkitd.conf"
        try "client-buffer-bytes = 268435456\n".write(toFile: config, atomically: true, encoding: .utf8)
        // A history that holds every stroke, before and after the restart: 40-odd lines of 114 KB
        // are more than the default 2 MiB (the restart restores lines whole).
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "3",
                                        "--history-strokes", "100000", "--history-bytes", "16777216"],
                                       config: config, stateDir: state.path)
        let swift = try PenKitClient(path: daemon.socket, bufferLines: 1)
        try swift.subscribe(.strokes)
        let python = try PythonResumingReader(socket: daemon.socket)
        let fast = try daemon.connect()
        try fast.subscribe(["strokes"])

        var fastStrokes: [String] = []
        while fastStrokes.count < Self.strokesBeforeStop, let line = try fast.readLine() {
            if type(line) == "stroke" { fastStrokes.append(line) }
        }
        daemon.signal(SIGTERM)
        let rest = try fast.readAll()
        fastStrokes += rest.filter { type($0) == "stroke" }
        let sent = UInt64(fastStrokes.count)
        // The reader that kept up got every stroke, then `shutdown` naming the last one.
        #expect(fastStrokes.compactMap(seq) == Array(1...sent))
        #expect(type(rest.last ?? "") == "shutdown")
        #expect((object(rest.last ?? "")["lastSentSeq"] as? NSNumber)?.uint64Value == sent)
        #expect(daemon.waitForExit(timeout: 60) == 0)
        #expect(daemon.log.contains("cutting it off"), "no client was cut off: the test did not test the cut-off")

        // Only now do the slow readers take what reached them.
        var before: [String] = []
        do {
            for try await line in swift.lines where type(line.text) == "stroke" { before.append(line.text) }
        } catch {
            // penkitd closed without a last line the client could read: expected of a cut-off.
        }
        let pythonBefore = try python.readUntilEnd()

        let restarted = try DaemonProcess(["--history-strokes", "100000", "--history-bytes", "16777216"], stateDir: state.path,
                                          socketPath: daemon.socket)
        let cutAt = try #require(swift.resumeSince)
        #expect(cutAt == UInt64(before.count) && cutAt < sent, "cut off at \(cutAt) of \(sent)")
        let resumed = try swift.resumed(.strokes)
        var after: [String] = []
        var replaying = -1
        for try await line in resumed.lines {
            if case .subscribed(let subscribed)? = PenMessage(line: line.text) { replaying = subscribed.replaying }
            if type(line.text) == "stroke" { after.append(line.text) }
            if replaying >= 0, after.count == replaying { break }
        }
        // Nothing lost, nothing twice, byte for byte what the fast reader got.
        #expect(before + after == fastStrokes)

        #expect(pythonBefore.lost, "the Python client did not notice that its connection was cut")
        #expect(pythonBefore.seqs == Array(1...UInt64(max(pythonBefore.seqs.count, 1))).prefix(pythonBefore.seqs.count).map { $0 })
        #expect(pythonBefore.resumeSince == UInt64(pythonBefore.seqs.count) && pythonBefore.resumeSince < sent)
        let pythonAfter = try python.resumeAndReadReplay()
        #expect(pythonBefore.seqs + pythonAfter.seqs == Array(1...sent))
        #expect(restarted.stop() == 0)
    }
}

/// The Python client (clients/python) in its own process: subscribes, takes nothing until told,
/// reads to the end and says what it got; then, told again, resumes on the same socket.
final class PythonResumingReader {
    struct Got: Decodable {
        var seqs: [UInt64]
        var lost: Bool
        var resumeSince: UInt64
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    static let script = #"""
    import json, sys
    from penkit.client import PenkitClient
    client = PenkitClient(sys.argv[1])
    client.subscribe(["strokes"])
    print("subscribed", flush=True)
    sys.stdin.readline()  # penkitd has stopped
    seqs = [m["seq"] for m in client if m["type"] == "stroke"]
    print(json.dumps({"seqs": seqs, "lost": client.lost, "resumeSince": client.resume_since}), flush=True)
    sys.stdin.readline()  # penkitd has started again
    resumed = client.resumed(["strokes"])
    seqs, replaying = [], None
    for m in resumed:
        if m["type"] == "subscribed":
            replaying = m["replaying"]
        if m["type"] == "stroke":
            seqs.append(m["seq"])
        if replaying is not None and len(seqs) == replaying:
            break
    print(json.dumps({"seqs": seqs, "lost": False, "resumeSince": resumed.resume_since}), flush=True)
    """#

    init(socket: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, socket]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["PYTHONPATH": repositoryRoot + "/clients/python"]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        guard try readLine() == "subscribed" else { throw TestFailure("the Python client did not subscribe") }
    }

    func readUntilEnd() throws -> Got { try tell() }
    func resumeAndReadReplay() throws -> Got { try tell() }

    private func tell() throws -> Got {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        guard let line = try readLine() else { throw TestFailure("the Python client ended early") }
        return try JSONDecoder().decode(Got.self, from: Data(line.utf8))
    }

    private func readLine() throws -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = output.fileHandleForReading.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
