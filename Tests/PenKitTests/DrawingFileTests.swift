import Foundation
import PenTestSupport
import Testing
@testable import PenKit

/// Random drawings with everything the format carries: transforms, masks with
/// erased regions and clips, seeds, cancelled strokes, estimated properties.
private func richDrawing(_ g: inout SeededGenerator) -> Drawing {
    var drawing = RandomDrawing.drawing(&g, strokes: Int.random(in: 0...6, using: &g))
    for _ in 0..<Int.random(in: 0...3, using: &g) {
        drawing.erase(along: RandomDrawing.eraserPath(&g), with: EraserTool(.pixel, width: .random(in: 1...8, using: &g)))
    }
    drawing = drawing.transformed(using: RandomDrawing.transform(&g, similarity: Bool.random(using: &g)))
    for i in drawing.strokes.indices {
        drawing.strokes[i].randomSeed = UInt32.random(in: 0...UInt32.max, using: &g)
        drawing.strokes[i].tool.type = ToolType.allCases.randomElement(using: &g)!
        let ink = drawing.strokes[i].ink
        drawing.strokes[i].ink = Ink(Ink.InkType.allCases.randomElement(using: &g)!, color: ink.color, width: ink.width)
        for j in drawing.strokes[i].path.controlPoints.indices where Bool.random(using: &g) {
            drawing.strokes[i].path.controlPoints[j].height *= .random(in: 0.1...1, using: &g)
        }
        if !drawing.strokes[i].points.isEmpty {
            drawing.strokes[i].points[0].estimated = SampleProperties(rawValue: UInt8.random(in: 0...31, using: &g))
            drawing.strokes[i].points[0].time = UInt64.random(in: 0...UInt64.max, using: &g)  // times may even go back
        }
    }
    return drawing
}

@Test func drawingFilesRoundTripExactly() {
    var g = SeededGenerator(seed: 31)
    var masked = 0
    for _ in 0..<300 {
        let drawing = richDrawing(&g)
        let bytes = DrawingFile.encode(drawing)
        let decoded = try? DrawingFile.decode(bytes)
        #expect(decoded == drawing)
        masked += drawing.strokes.filter { $0.mask != nil }.count
    }
    #expect(masked > 50)
}

@Test func specialDoublesRoundTripBitForBit() throws {
    var stroke = Stroke(id: 7, tool: ToolIdentity(type: .pen), ink: Ink(.pen), cancelled: false,
                        samples: [Sample(time: 1, x: 1, y: 2), Sample(time: 2, x: 3, y: 4)])
    let specials: [Double] = [-0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-300]
    for (i, v) in specials.enumerated() {
        stroke.points[i % 2].x = v
        stroke.path.controlPoints[i % 2].size = v
        stroke.transform.tx = v
        let bytes = DrawingFile.encode(Drawing(strokes: [stroke]))
        let back = try DrawingFile.decode(bytes).strokes[0]
        #expect(back.points[i % 2].x.bitPattern == v.bitPattern)
        #expect(back.path.controlPoints[i % 2].size.bitPattern == v.bitPattern)
        #expect(back.transform.tx.bitPattern == v.bitPattern)
        #expect(DrawingFile.encode(Drawing(strokes: [back])) == bytes)
    }
}

@Test func everyTruncationIsReportedAsTruncated() {
    var g = SeededGenerator(seed: 32)
    let bytes = DrawingFile.encode(richDrawing(&g).appending(RandomDrawing.drawing(&g, strokes: 2)))
    for length in 1..<bytes.count {
        do {
            _ = try DrawingFile.decode(Array(bytes.prefix(length)))
            Issue.record("a \(length)-byte prefix of \(bytes.count) decoded")
        } catch {
            #expect(error == .truncated(expected: bytes.count, found: length)
                    || (length < DrawingFile.headerSize && error == .truncated(expected: DrawingFile.headerSize + 4, found: length)),
                    "\(length): \(error)")
        }
    }
    #expect(throws: DrawingFormatError.notADrawing) { try DrawingFile.decode([]) }
}

@Test func everyFlippedBitIsCaught() {
    var g = SeededGenerator(seed: 33)
    let bytes = DrawingFile.encode(richDrawing(&g).appending(RandomDrawing.drawing(&g, strokes: 1)))
    for index in bytes.indices {
        var damaged = bytes
        damaged[index] ^= 1 << UInt8.random(in: 0...7, using: &g)
        #expect(throws: DrawingFormatError.self, "byte \(index)") { try DrawingFile.decode(damaged) }
    }
    var longer = bytes
    longer.append(0)
    #expect(throws: DrawingFormatError.self) { try DrawingFile.decode(longer) }
}

@Test func aNewerVersionIsRefusedByName() {
    var bytes = DrawingFile.encode(Drawing())
    bytes[8] = 4
    #expect(throws: DrawingFormatError.futureVersion(found: 4, supported: 3)) { try DrawingFile.decode(bytes) }
    bytes[0] = UInt8(ascii: "{")
    #expect(throws: DrawingFormatError.notADrawing) { try DrawingFile.decode(bytes) }
}

/// Bodies of random bytes behind a valid header and checksum reach the parser
/// itself: it must answer with an error or a drawing, never crash or allocate
/// what the file cannot hold.
@Test func randomBodiesWithValidChecksumsNeverCrash() {
    var g = SeededGenerator(seed: 34)
    let valid = DrawingFile.encode(richDrawing(&g))
    var rejected = 0
    for trial in 0..<3000 {
        var body: [UInt8]
        if trial % 2 == 0 {
            body = (0..<Int.random(in: 0...200, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
        } else {
            // A valid body with a few bytes changed: deeper into the parser.
            body = Array(valid[DrawingFile.headerSize..<(valid.count - 4)])
            for _ in 0..<Int.random(in: 1...3, using: &g) where !body.isEmpty {
                body[Int.random(in: 0..<body.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
            }
        }
        var w = DrawingByteWriter()
        w.bytes = DrawingFile.signature
        w.u16(1)
        w.u16(0)
        w.u64(UInt64(body.count))
        w.bytes += body
        w.u32(CRC32.checksum(w.bytes[...]))
        do { _ = try DrawingFile.decode(w.bytes) } catch { rejected += 1 }
    }
    #expect(rejected > 1500)
}

@Test func crcIsTheStandardOne() {
    #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
}

/// Files written by penkit before format version 2 (Tests/Fixtures/drawing-v1/README.md says how).
private func versionOneFixture(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return Array(try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/drawing-v1/\(name).penkit")))
}

@Test func versionOneFilesFromBeforeVersionTwoStillOpen() throws {
    let marker = try versionOneFixture("v1-drag-marker-erased")
    #expect(marker[8] == 1 && marker[9] == 0, "the fixture is a version 1 file")
    let drawing = try DrawingFile.decode(marker)
    // One marker stroke cut in two by a pixel eraser pass: two pieces, each with a clip and an erased region.
    #expect(drawing.strokes.count == 2)
    #expect(drawing.strokes.allSatisfy { $0.ink.type == .marker && $0.mask?.clip != nil && !($0.mask?.erased.isEmpty ?? true) })
    // Version 1 had round nibs: its strokes open with height = size, as they were drawn.
    #expect(drawing.strokes.allSatisfy { $0.path.controlPoints.allSatisfy { $0.height == $0.size } })
    // Written back as version 1, byte for byte the file: nothing was lost or changed in reading it.
    #expect(DrawingFile.encode(drawing, version: 1) == marker)
    let pencil = try versionOneFixture("v1-drag-pencil")
    let one = try DrawingFile.decode(pencil)
    #expect(one.strokes.count == 1 && one.strokes[0].ink.type == .pencil && one.strokes[0].points.count > 100)
    #expect(DrawingFile.encode(one, version: 1) == pencil)
    // And as version 2 it round-trips too.
    #expect(try DrawingFile.decode(DrawingFile.encode(drawing)) == drawing)
}

@Test func versionTwoCarriesNibHeightsAndTheNewerInks() throws {
    let samples = (0...12).map { i in Sample(time: UInt64(i) * 5_000, x: Double(i), y: 2 * Double(i), force: Double(i) / 12) }
    var strokes: [Stroke] = []
    for (i, type) in [Ink.InkType.monoline, .fountainPen, .watercolor, .crayon, .marker].enumerated() {
        strokes.append(Stroke(id: UInt64(i), tool: ToolIdentity(type: .pen), ink: Ink(type), cancelled: false, samples: samples))
    }
    let drawing = Drawing(strokes: strokes)
    #expect(drawing.strokes[1].path.controlPoints.contains { $0.height < $0.size }, "the fountain pen's nib is not round")
    let bytes = DrawingFile.encode(drawing, version: 2)
    #expect(bytes[8] == 2)
    #expect(try DrawingFile.decode(bytes) == drawing)
    // A version 1 file never named the newer inks: one that does is corrupt, not misread.
    let v1 = DrawingFile.encode(Drawing(strokes: [strokes[0]]), version: 1)
    #expect(throws: DrawingFormatError.self) { try DrawingFile.decode(v1) }
}

/// Version 3 adds each control point's barrel roll (the shaped nibs turn with it). A version 2 file
/// has none: it opens with roll 0, its nibs at the ink's angle as version 2 drew them, all else equal.
@Test func versionThreeCarriesRollAndVersionTwoOpensWithoutIt() throws {
    let samples = (0...12).map { i in
        Sample(time: UInt64(i) * 5_000, x: Double(i), y: 2 * Double(i), force: 0.5, roll: Double(i) * 0.4)
    }
    let stroke = Stroke(id: 1, tool: ToolIdentity(type: .pen), ink: Ink(.marker), cancelled: false, samples: samples)
    let drawing = Drawing(strokes: [stroke])
    #expect(stroke.path.controlPoints.map(\.roll) == samples.map(\.roll))
    let bytes = DrawingFile.encode(drawing)
    #expect(bytes[8] == 3)
    #expect(try DrawingFile.decode(bytes) == drawing)
    let v2 = try DrawingFile.decode(DrawingFile.encode(drawing, version: 2))
    let back = try #require(v2.strokes.first)
    #expect(back.path.controlPoints.allSatisfy { $0.roll == 0 })
    var unrolled = stroke.path.controlPoints
    for i in unrolled.indices { unrolled[i].roll = 0 }
    #expect(back.path.controlPoints == unrolled)
    #expect(back.points == stroke.points, "the samples kept their roll in version 2 already")
}
