import Foundation
import Testing

/// `penkit surface-fit` as a user runs it: a real trace's `penkit replay --json`, and app events made
/// here from its frames under a map this test chooses (270°, ×3, mirrored, an offset), their times
/// floored to ms on a clock 5000.25 ms ahead, one motion event in ten dropped.
@Suite struct SurfaceFitCommandTests {
    let truth: [Double] = [0, 3, -3, 0, 900, -700].enumerated().map { $0.offset == 0 || $0.offset == 2 ? -$0.element : $0.element }

    func place(_ x: Double, _ y: Double) -> (Double, Double) {
        (truth[0] * x + truth[2] * y + truth[4], truth[1] * x + truth[3] * y + truth[5])
    }

    @Test func printsTheMapAndWhenItWasReady() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("surface-fit-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = ViewProcess.repositoryRoot + "/traces/wacom-dth2242-pen.evemu"
        let frames = try run(["replay", "--json", trace])
        let framesPath = dir.appendingPathComponent("frames.jsonl").path
        try frames.write(toFile: framesPath, atomically: true, encoding: .utf8)

        var events: [String] = [], positions: [(Double, Double)] = []
        var random: UInt64 = 7
        for line in frames.split(separator: "\n") where line.hasPrefix("{\"type\":\"frame\"") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let s = try #require(o["sample"] as? [String: Any])
            let t = (s["t"] as! NSNumber).doubleValue, x = (s["x"] as! NSNumber).doubleValue, y = (s["y"] as! NSNumber).doubleValue
            positions.append((x, y))
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if events.count > 0, random >> 60 < 2 { continue }  // about one in eight dropped
            let p = place(x, y)
            events.append("{\"t_ms\":\((t / 1000 + 5000.25).rounded(.down)),\"x\":\(p.0),\"y\":\(p.1),\"proximity\":\"\(events.isEmpty ? "in" : "move")\"}")
        }
        let eventsPath = dir.appendingPathComponent("events.jsonl").path
        try events.joined(separator: "\n").write(toFile: eventsPath, atomically: true, encoding: .utf8)

        let output = try run(["surface-fit", "--frames", framesPath, "--app-events", eventsPath, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let device = try #require((report["devices"] as? [[String: Any]])?.first)
        let m = try #require(device["transform"] as? [Double])
        #expect(m.count == 6)
        #expect(device["ready"] as? Bool == true)
        let readyAfter = try #require(device["readyAfterAppEvents"] as? Int)
        #expect(readyAfter > 0 && readyAfter < 200)
        // Where the pen last was, the printed map puts it within 0.01 of the chosen one.
        for (x, y) in positions.suffix(50) {
            let want = place(x, y)
            let got = (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
            #expect(((got.0 - want.0) * (got.0 - want.0) + (got.1 - want.1) * (got.1 - want.1)).squareRoot() <= 0.01)
        }
        let offset = try #require(report["clockOffsetMs"] as? Double)
        #expect(offset > 4999 && offset <= 5000.25)
    }

    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ViewProcess.penkitPath)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "penkit \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }
}
