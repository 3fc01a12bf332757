import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// penkitd digests every frame it publishes by finding its parts from the braces around them
/// (`LineDigest.FramePlaces`). Here each part is cut out of real frames by a plain text search
/// and a JSON parse instead, and the digests must be the same: `full` the line without
/// `delivered`, `core` without the prediction either, `number` the sample's `updateIndex`.
@Suite struct LineDigestFrameTests {
    static func frames(_ trace: String) throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("traces/\(trace)").path
        var replay = EngineReplay(prediction: EnginePrediction.penkit(smoothed: true))
        var lines: [String] = []
        replay.run(try decodeForEngine(path, options: DecoderOptions())) { message in
            let line = message.jsonLine()
            if ReplayCheck.type(line) == "frame" { lines.append(line) }
        }
        return lines
    }

    static func hash(_ text: String) -> UInt64 {
        var hasher = LineDigest.Hasher()
        Array(text.utf8).withUnsafeBytes { hasher.feed($0) }
        return hasher.finish()
    }

    static func withoutDelivered(_ line: String) -> String {
        guard let start = line.range(of: #","delivered":{"#),
              let end = line[start.upperBound...].firstIndex(of: "}") else { return line }
        return String(line[..<start.lowerBound] + line[line.index(after: end)...])
    }

    /// As the virtual tablet adds it, just before `device`.
    static func delivering(_ line: String) -> String {
        line.replacingOccurrences(of: #","device":"#, with: #","delivered":{"x":12.5,"y":3.25,"force":0.5},"device":"#)
    }

    @Test(arguments: ["wacom-cintiq-22hdt-pen.evemu", "wacom-dth2242-pen.evemu", "wacom-intuos4-6x9-stylus-drag.evemu"])
    func aFramesDigestIsMadeOfTheSamePartsAsATextSearchCutsOut(trace: String) throws {
        let frames = try Self.frames(trace)
        #expect(frames.count > 100)
        var withUpdateIndex = 0, inStroke = 0
        for plain in frames {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.utf8)) as? [String: Any])
            let sample = try #require(object["sample"] as? [String: Any])
            let updateIndex = (sample["updateIndex"] as? NSNumber)?.uint64Value ?? 0
            if updateIndex > 0 { withUpdateIndex += 1 }
            if object["stroke"] != nil { inStroke += 1 }
            let predicted = try #require(plain.range(of: #","predicted":["#))
            let device = try #require(plain.range(of: #","device":"#, options: .backwards))
            let core = String(plain[..<predicted.lowerBound] + plain[device.lowerBound...])
            for line in [plain, Self.delivering(plain)] {
                let digest = try #require(LineDigest.of(line))
                #expect(digest.kind == .frame)
                #expect(digest.full == Self.hash(Self.withoutDelivered(line)), "\(line)")
                #expect(digest.core == Self.hash(core), "\(line)")
                #expect(digest.number == updateIndex && digest.inStroke == (object["stroke"] != nil), "\(line)")
            }
        }
        // the cases the places are found around all occur
        #expect(inStroke > 0)
        if trace.hasPrefix("wacom-cintiq") { #expect(withUpdateIndex > 0) }
    }

    /// A line not shaped as penkitd writes frames is digested whole, never misread.
    @Test func aFrameOfAnotherShapeIsDigestedWhole() throws {
        for line in [#"{"type":"frame","tool":{"type":"pen"},"device":1}"#,
                     #"{"type":"frame","tool":{"type":"pen"},"sample":{"t":1},"device":1}"#] {
            let digest = try #require(LineDigest.of(line))
            #expect(digest.full == Self.hash(line) && digest.core == digest.full && digest.number == 0)
        }
    }
}
