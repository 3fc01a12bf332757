import Foundation
import PenTestSupport
import Testing
@testable import PenKit

private func randomProperties(_ g: inout SeededGenerator) -> SampleProperties {
    SampleProperties(rawValue: UInt8.random(in: 0...31, using: &g))
}

private func randomSample(_ g: inout SeededGenerator) -> Sample {
    Sample(time: UInt64.random(in: 0...UInt64(1) << 50, using: &g),
           x: Double.random(in: 0...500, using: &g), y: Double.random(in: 0...300, using: &g),
           force: Double.random(in: 0...1, using: &g), azimuth: Double.random(in: 0..<(2 * .pi), using: &g),
           altitude: Double.random(in: 0...(.pi / 2), using: &g), roll: Double.random(in: 0..<(2 * .pi), using: &g),
           distance: Double.random(in: 0...1, using: &g) * 1e-6,
           estimated: randomProperties(&g), expectingUpdates: randomProperties(&g),
           updateIndex: Bool.random(using: &g) ? UInt64.random(in: 0...UInt64.max, using: &g) : nil)
}

private func randomTool(_ g: inout SeededGenerator) -> ToolIdentity {
    ToolIdentity(type: ToolType.allCases.randomElement(using: &g)!,
                 serial: UInt64.random(in: 0...UInt64.max, using: &g), id: UInt64.random(in: 0...0xFFFF, using: &g))
}

private func randomInk(_ g: inout SeededGenerator) -> Ink {
    // Colors travel as 8-bit hex: generate values that survive it.
    func c() -> Double { Double(Int.random(in: 0...255, using: &g)) / 255 }
    return Ink(Ink.InkType.allCases.randomElement(using: &g)!,
               color: InkColor(red: c(), green: c(), blue: c(), alpha: c()),
               width: Double.random(in: 0.1...20, using: &g))
}

private func randomStroke(_ g: inout SeededGenerator) -> Stroke {
    let n = Int.random(in: 0...6, using: &g)
    let points = (0..<n).map { _ in
        StrokeSample(time: UInt64.random(in: 0...1 << 40, using: &g), x: .random(in: -1...1, using: &g),
                     y: .random(in: 0...400, using: &g), force: .random(in: 0...1, using: &g),
                     azimuth: .random(in: 0...6, using: &g), altitude: .random(in: 0...1.5, using: &g),
                     roll: 0, size: .random(in: 0...9, using: &g), opacity: .random(in: 0...1, using: &g),
                     estimated: randomProperties(&g))
    }
    let controls = (0..<n).map { _ in
        StrokePoint(x: .random(in: 0...400, using: &g), y: .random(in: 0...400, using: &g),
                    timeOffset: .random(in: 0...3, using: &g), size: .random(in: 0...9, using: &g),
                    opacity: .random(in: 0...1, using: &g), azimuth: .random(in: 0...6, using: &g),
                    force: .random(in: 0...1, using: &g), altitude: .random(in: 0...1.5, using: &g))
    }
    return Stroke(id: UInt64.random(in: 1...1000, using: &g), tool: randomTool(&g), ink: randomInk(&g),
                  cancelled: Bool.random(using: &g), points: points,
                  path: StrokePath(controlPoints: controls, creationTime: UInt64.random(in: 0...1 << 40, using: &g)))
}

private func randomMessage(_ g: inout SeededGenerator) -> EngineMessage {
    switch Int.random(in: 0..<5, using: &g) {
    case 0:
        return .frame(Frame(tool: randomTool(&g), stroke: Bool.random(using: &g) ? 7 : nil,
                            sample: randomSample(&g),
                            predicted: (0..<Int.random(in: 0...3, using: &g)).map { _ in randomSample(&g) }))
    case 1:
        return .began(StrokeBegan(stroke: .random(in: 1...99, using: &g), tool: randomTool(&g),
                                  ink: randomInk(&g), time: .random(in: 0...1 << 45, using: &g)))
    case 2:
        return .update(SampleUpdate(stroke: Bool.random(using: &g) ? 3 : nil, updateIndex: .random(in: 0...1 << 60, using: &g),
                                    updated: randomProperties(&g), expired: randomProperties(&g), sample: randomSample(&g)))
    case 3:
        return .ended(StrokeEnded(stroke: .random(in: 1...99, using: &g), time: .random(in: 0...1 << 45, using: &g),
                                  cancelled: Bool.random(using: &g), pendingUpdates: .random(in: 0...500, using: &g)))
    default:
        return .stroke(FinalizedStroke(seq: .random(in: 1...99, using: &g), stroke: randomStroke(&g)))
    }
}

@Test func engineMessagesRoundTripThroughJSON() throws {
    var g = SeededGenerator(seed: 42)
    for _ in 0..<500 {
        let message = randomMessage(&g)
        let line = message.jsonLine()
        #expect(!line.contains("\n"))
        let decoded = try EngineMessage.decode(jsonLine: line)
        #expect(decoded == message, "\(line)")
    }
}

@Test func strokeMessageHasTheDocumentedShape() throws {
    let stroke = Stroke(
        id: 4, tool: ToolIdentity(type: .pen, serial: 0x1234, id: 0x802), ink: Ink(.pencil), cancelled: false,
        points: [StrokeSample(time: 1_000, x: 1.5, y: 2, force: 0.25, azimuth: 0, altitude: 1, roll: 0,
                              size: 0.8, opacity: 1, estimated: [.force])],
        path: StrokePath(controlPoints: [StrokePoint(x: 1.5, y: 2, timeOffset: 0, size: 0.8, opacity: 1,
                                                     azimuth: 0, force: 0.25, altitude: 1)], creationTime: 1_000))
    let line = EngineMessage.stroke(FinalizedStroke(seq: 2, stroke: stroke)).jsonLine()
    // Parsed by Foundation independently of our decoder: the keys clients rely on.
    let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["type"] as? String == "stroke")
    #expect(object["seq"] as? Int == 2)
    let s = try #require(object["stroke"] as? [String: Any])
    #expect(Set(s.keys).isSuperset(of: ["id", "tool", "ink", "cancelled", "points", "path"]))
    let tool = try #require(s["tool"] as? [String: Any])
    #expect(tool["type"] as? String == "pen" && tool["serial"] as? Int == 0x1234 && tool["id"] as? Int == 0x802)
    let point = try #require((s["points"] as? [[String: Any]])?.first)
    #expect(Set(point.keys) == ["t", "x", "y", "force", "azimuth", "altitude", "roll", "size", "opacity", "estimated"])
    #expect(point["estimated"] as? [String] == ["force"])
    let path = try #require(s["path"] as? [String: Any])
    #expect((path["controlPoints"] as? [Any])?.count == 1)
}

@Test func inkColorHexRoundTrips() {
    #expect(InkColor.black.hexString == "#000000ff")
    #expect(InkColor(hexString: "#ff8000cc") == InkColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 204.0 / 255))
    #expect(InkColor(hexString: "ff8000cc") == nil)
    #expect(InkColor(hexString: "#gg8000cc") == nil)
}

@Test func unknownMessageTypeIsAnError() {
    #expect(throws: (any Error).self) { try EngineMessage.decode(jsonLine: #"{"type":"bogus"}"#) }
    #expect(throws: (any Error).self) { try EngineMessage.decode(jsonLine: "not json") }
}
