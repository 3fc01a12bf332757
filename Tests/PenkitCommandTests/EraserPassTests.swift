import Foundation
import PenKit
@testable import penkit
import Testing

/// `penkit draw --eraser-pass` (what `make demo`'s erased drawing uses): a synthetic pixel
/// eraser through the middle of a real stroke cuts it, and no visible path is left within its reach.
/// The pass's lines are computed here from the unerased drawing's bounds.
@Suite struct EraserPassTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-intuos4-6x9-stylus-drag.evemu").path

    static func drawing(_ extra: [String]) throws -> Drawing {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("eraser-pass-\(UUID().uuidString).penkit").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var command = try DrawCommand.parse([trace, "--eraser", "pixel", "--save", file] + extra)
        try command.run()
        return try DrawingFile.read(from: file)
    }

    @Test func arguments() {
        #expect(EraserPass(argument: "across") == .across)
        #expect(EraserPass(argument: "1,2,3.5,-4") == .line(DrawingPoint(x: 1, y: 2), DrawingPoint(x: 3.5, y: -4)))
        for bad in ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,3,nan", "1,,2,3"] { #expect(EraserPass(argument: bad) == nil, "\(bad)") }
        #expect(throws: (any Error).self) { _ = try DrawCommand.parse([Self.trace, "--eraser-pass", "0,0,1e9,0"]) }
    }

    @Test func aPassAcrossCutsTheDragAndLeavesNoInkInItsReach() throws {
        let before = try Self.drawing([])
        #expect(before.strokes.count == 1)
        let box = try #require(before.bounds)
        let after = try Self.drawing(["--eraser-pass", "across"])
        #expect(after.strokes.count == 2, "the drag cut in two, \(after.strokes.count) pieces")
        let reach = EraserTool(.pixel).width / 2
        let midX = (box.minX + box.maxX) / 2, midY = (box.minY + box.maxY) / 2
        var inkLeft = 0
        for stroke in after.strokes {
            for point in stroke.visiblePoints(by: .parametricStep(1.0 / 32)).joined() {
                inkLeft += 1
                // The visible path stays out of both lines' reach (the SVG's mask clears the
                // pixels inside it: the ink's round ends do not reach in either).
                let gap = min(abs(point.x - midX), abs(point.y - midY))
                #expect(gap >= reach - 1e-6, "ink at (\(point.x), \(point.y)) within the eraser's reach")
            }
        }
        #expect(inkLeft > 100, "the drag's ink away from the middle stays")
    }
}
