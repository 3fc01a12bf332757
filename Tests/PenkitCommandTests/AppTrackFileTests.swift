import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// `penkit bench virtual-tablet --app-track`: an app's pen, as the desktop guest writes it, judged
/// against the real pen. The expected figures follow from how each track is built, not from the
/// metrics' code: the real pen itself scores no lag and no distance, the same pen moved 1 mm
/// sideways scores 1 mm of RMSE; a file that is not a track says where and why.
@Suite struct AppTrackFileTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-intuos4-6x9-stylus-drag.evemu").path
    static let feel = PenFeel(curve: PressureCurve(x1: 0, y1: 0.25, x2: 0.75, y2: 1))

    /// The trace's real pen (decoded raw) and a file holding it, moved by `shift` mm in x, with the
    /// force the curve gives for its pressure (what an app gets when nothing is lost).
    static func realAndFile(shift: Double) throws -> (real: PenTrack, file: String) {
        let device = try #require(try TraceFile.load(path: trace).devices.first)
        let real = PenTrack(try TabletDecoder.decode(device.events, device: device.description, options: DecoderOptions(smoothing: false)))
        let lines = real.samples.map { s in
            #"{"time":\#(s.time),"x":\#(s.position.x + shift),"y":\#(s.position.y),"pressure":\#(feel.force(fromRaw: s.pressure)),"tip":\#(s.touching),"proximity":\#(s.proximity)}"#
        }
        let file = NSTemporaryDirectory() + "penkit-app-track-\(getpid())-\(shift).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return (real, file)
    }

    @Test func theRealPenItselfScoresNoLagNoDistanceAndTheCurve() throws {
        let (real, file) = try Self.realAndFile(shift: 0)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let app = try AppTrackFile.load(path: file)
        #expect(app.samples.count == real.samples.count)
        let m = VirtualTabletMetrics(pairs: [(real, app)], feel: Self.feel)
        #expect(m.contactSamples > 100)
        #expect(m.lagMilliseconds == 0)
        #expect(m.rmse < 1e-9)
        #expect(m.pressureError < 1e-9)
        #expect(m.contactMismatches == 0)
    }

    @Test func aPenOneMillimetreAsideScoresOneMillimetreOfRMSE() throws {
        let (real, file) = try Self.realAndFile(shift: 1)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let m = VirtualTabletMetrics(pairs: [(real, try AppTrackFile.load(path: file))], feel: Self.feel)
        #expect(abs(m.rmse - 1) < 1e-6)
    }

    @Test func aFileThatIsNotATrackSaysWhereAndWhy() throws {
        let file = NSTemporaryDirectory() + "penkit-app-track-bad-\(getpid()).jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        func error(for text: String) throws -> String {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            do { _ = try AppTrackFile.load(path: file); return "" } catch { return "\(error)" }
        }
        let line = #"{"time":10,"x":1,"y":2,"pressure":0.5,"tip":true,"proximity":0}"#
        #expect(try error(for: line + "\n{\"time\":11}\n").contains(":2: not an app track line"))
        #expect(try error(for: line + "\n" + line.replacingOccurrences(of: "10", with: "9") + "\n").contains(":2: time goes back"))
        #expect(try error(for: "").contains("no samples"))
        #expect(try error(for: line + "\n").isEmpty)
    }
}
