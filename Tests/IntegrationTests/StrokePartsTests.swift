import Foundation
import PenKit
import Testing

/// Long strokes in parts (docs/protocol.md, "Long strokes"), on a real penkitd replaying a real
/// trace with a part size small enough (`--stroke-part-points 8`) that its short strokes come in
/// many parts. What a client that takes parts puts back together must be, field for field, what a
/// client that did not ask for parts gets from the same replay; and that client's lines must be
/// byte for byte those of a penkitd that sends the same strokes in one line (the default size).
@Suite(.serialized)
struct StrokePartsTests {
    static let trace = "wacom-dth2242-pen.evemu"
    static let partPoints = 8

    @Test func partsPutTogetherAreTheWholeStrokesOfTheSameReplay() async throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "3", "--exit-after-replay",
                                        "--stroke-part-points", "\(Self.partPoints)"])
        let whole = try daemon.connect()
        let parted = try daemon.connect()
        let swift = try PenKitClient(path: daemon.socket)
        try whole.subscribe(["strokes"])
        try parted.send("{\"type\":\"subscribe\",\"version\":1,\"channels\":[\"strokes\"],\"strokeParts\":true}\n")
        try swift.subscribe(.strokes)
        let wholeLines = try whole.readAll().filter { type($0) == "stroke" }
        let partedLines = try parted.readAll()
        #expect(wholeLines.count == (try tipDowns(in: Self.trace)))
        #expect(wholeLines.allSatisfy { object($0)["parts"] == nil })

        // The subscription says the size; every part holds at most that many, and they come in parts.
        let subscribed = object(partedLines.first { type($0) == "subscribed" } ?? "")
        #expect((subscribed["strokeParts"] as? [String: Any])?["points"] as? Int == Self.partPoints)
        let parts = partedLines.filter { type($0) == "strokePart" }
        #expect(parts.count > wholeLines.count)
        for part in parts {
            let fields = object(part)
            let elements = (fields["points"] as? [Any] ?? []).count + (fields["controlPoints"] as? [Any] ?? []).count
            #expect((1...Self.partPoints).contains(elements), "\(part.prefix(120))")
        }

        // Put together independently of penkit's own assembler, as a dictionary.
        let strokes = partedLines.filter { type($0) == "stroke" }
        #expect(strokes.count == wholeLines.count)
        #expect(Self.joinParts(partedLines) == wholeLines.map(Self.wholeStroke))

        // penkit's assembler gives back the exact whole lines.
        var assembler = StrokeAssembler()
        let assembled = try partedLines.compactMap { try assembler.take($0) }.filter { type($0) == "stroke" }
        #expect(assembled == wholeLines)
        #expect(!assembler.isAssembling)

        // PenKitClient asked for parts (its default) and gives the app whole strokes. Its reader
        // thread has taken the lines meanwhile; awaited here, never waited on with a semaphore.
        var received: [FinalizedStroke] = []
        for try await message in swift.messages { if case .engine(.stroke(let s)) = message { received.append(s) } }
        #expect(received == (try wholeLines.map { line -> FinalizedStroke in
            guard case .stroke(let s) = try EngineMessage.decode(jsonLine: line) else { throw TestFailure("not a stroke") }
            return s
        }))
        #expect(daemon.waitForExit() == 0)

        // A penkitd that sends these strokes in one line each (the default size) sends the same bytes.
        let reference = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"])
        let plain = try reference.connect()
        try plain.subscribe(["strokes"])
        let referenceLines = try plain.readAll().filter { type($0) == "stroke" }
        #expect(referenceLines == wholeLines)
        #expect(reference.waitForExit() == 0)
    }

    @Test func historyAndJournalServePartsToClientsThatAskAndWholeStrokesToOthers() throws {
        let state = try StateDirectoryFixture()
        let first = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1",
                                       "--stroke-part-points", "\(Self.partPoints)"], stateDir: state.path)
        let live = try first.connect()
        try live.subscribe(["strokes"])
        let expected = try tipDowns(in: Self.trace)
        var wholeLines: [String] = []
        while wholeLines.count < expected, let line = try live.readLine() { if type(line) == "stroke" { wholeLines.append(line) } }
        #expect(wholeLines.count == expected)

        // From this run's history.
        #expect(try Self.replayed(from: first, parts: false, count: expected) == wholeLines)
        let historyParts = try Self.replayed(from: first, parts: true, count: expected)
        #expect(historyParts.contains { type($0) == "strokePart" })
        #expect(Self.joinParts(historyParts) == wholeLines.map(Self.wholeStroke))
        #expect(first.stop() == 0)

        // From the journal, after a restart (a one-stroke trace replays meanwhile; its stroke comes after).
        let second = try DaemonProcess(["--replay", tracePath("wacom-intuos4-6x9-stylus-tap.evemu"), "--wait-clients", "1",
                                        "--stroke-part-points", "\(Self.partPoints)"], stateDir: state.path)
        #expect(Array(try Self.replayed(from: second, parts: false, count: expected).prefix(expected)) == wholeLines)
        let journalParts = try Self.replayed(from: second, parts: true, count: expected)
        #expect(journalParts.contains { type($0) == "strokePart" })
        #expect(Array(Self.joinParts(journalParts).prefix(expected)) == wholeLines.map(Self.wholeStroke))
        #expect(second.stop() == 0)
    }

    @Test func strokePartsMustBeABoolean() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"])
        let client = try daemon.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        try client.send("{\"type\":\"subscribe\",\"version\":1,\"strokeParts\":1}\n")
        let reply = object(try client.readLine() ?? "")
        #expect(reply["type"] as? String == "error")
        #expect(reply["code"] as? String == "malformed")
        #expect(daemon.stop() == 0)
    }

    // MARK: helpers

    /// The history's strokes after seq 0 as one client gets them, until `count` strokes came.
    private static func replayed(from daemon: DaemonProcess, parts: Bool, count: Int) throws -> [String] {
        let client = try daemon.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        try client.send("{\"type\":\"subscribe\",\"version\":1,\"channels\":[\"strokes\"],\"since\":0"
                        + (parts ? ",\"strokeParts\":true}\n" : "}\n"))
        var lines: [String] = []
        var strokes = 0
        while strokes < count, let line = try client.readLine() {
            guard type(line) == "stroke" || type(line) == "strokePart" else { continue }
            lines.append(line)
            if type(line) == "stroke" { strokes += 1 }
        }
        return lines
    }

    /// Each stroke with its parts' points and control points put back, without `parts`: the
    /// test's own reading of the documented form, as a Python or JS client would do it.
    private static func joinParts(_ lines: [String]) -> [NSDictionary] {
        var points: [Any] = []
        var controlPoints: [Any] = []
        var strokes: [NSDictionary] = []
        for line in lines {
            var fields = object(line)
            if type(line) == "strokePart" {
                points += fields["points"] as? [Any] ?? []
                controlPoints += fields["controlPoints"] as? [Any] ?? []
            } else if type(line) == "stroke" {
                if fields["parts"] != nil {
                    fields["parts"] = nil
                    var stroke = fields["stroke"] as? [String: Any] ?? [:]
                    var path = stroke["path"] as? [String: Any] ?? [:]
                    stroke["points"] = points
                    path["controlPoints"] = controlPoints
                    stroke["path"] = path
                    fields["stroke"] = stroke
                }
                points = []
                controlPoints = []
                strokes.append(fields as NSDictionary)
            }
        }
        return strokes
    }

    private static func wholeStroke(_ line: String) -> NSDictionary { object(line) as NSDictionary }
}
