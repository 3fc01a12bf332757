import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenVirtualTablet
import Testing

/// Barrel buttons remapped per tool (`button-1`…`button-3` in a `[tool]` section), as the
/// compositor's libinput reads the virtual tablet (the libinput-exact decoder with penkit's
/// quirk). What each press should become comes from the recording itself: its raw decode says
/// when each real button went down and up.
@Suite struct VirtualPenButtonRemapTests {
    static func paths(buttons: BarrelButtons) throws -> VirtualTabletPaths {
        let device = try VirtualTabletFixtures.trace("wacom-cintiq-22hdt-pen.evemu")
        return try VirtualTabletPaths(device: device.description, events: device.events, feel: PenFeel(buttons: buttons),
                                      quirksFile: VirtualTabletFixtures.quirkFile)
    }

    static func presses(_ events: [TabletEvent], code: Int) -> [(UInt64, TabletEvent.State?)] {
        events.filter { $0.kind == .button && $0.button.map(Int.init) == code }.map { ($0.time, $0.state) }
    }

    static let stylus = 0x14b, stylus2 = 0x14c, left = 0x110, right = 0x111

    @Test func aButtonRemappedToAClickIsThatClickAndNoneIsNothing() throws {
        let paths = try Self.paths(buttons: [1: .right, 2: .nothing])
        let first = Self.presses(paths.real, code: Self.stylus), second = Self.presses(paths.real, code: Self.stylus2)
        #expect(!first.isEmpty && !second.isEmpty, "the recording presses both barrel buttons")
        let rights = Self.presses(paths.virtual, code: Self.right)
        #expect(rights.map(\.0) == first.map(\.0) && rights.map(\.1) == first.map(\.1))
        #expect(Self.presses(paths.virtual, code: Self.stylus).isEmpty)
        #expect(Self.presses(paths.virtual, code: Self.stylus2).isEmpty)
        // Without a remap, the buttons are written as pressed.
        let plain = try Self.paths(buttons: [:])
        #expect(Self.presses(plain.virtual, code: Self.stylus).map(\.0) == first.map(\.0))
        #expect(Self.presses(plain.virtual, code: Self.right).isEmpty)
    }

    @Test func aButtonRemappedToTheEraserMakesThePenTheEraserWhileHeld() throws {
        let paths = try Self.paths(buttons: [1: .eraser])
        let first = Self.presses(paths.real, code: Self.stylus)
        let down = try #require(first.first { $0.1 == .pressed }?.0)
        let up = try #require(first.first { $0.1 == .released && $0.0 > down }?.0)
        // The compositor sees the pen leave and the eraser come in at the press, and the reverse at the release.
        let atDown = paths.virtual.filter { $0.time == down && $0.kind == .proximity }
        #expect(atDown.map(\.state) == [.proximityOut, .proximityIn])
        #expect(atDown.last?.tool.type == .eraser)
        let between = paths.virtual.filter { $0.time > down && $0.time < up }
        #expect(!between.isEmpty && between.allSatisfy { $0.tool.type == .eraser })
        // At the release the real tool (the one that pressed: in this recording the airbrush) is back.
        let realTool = try #require(paths.real.first { $0.time == up && $0.kind == .button }?.tool.type)
        #expect(realTool != .eraser)
        let atUp = paths.virtual.filter { $0.time == up && $0.kind == .proximity }
        #expect(atUp.map(\.state) == [.proximityOut, .proximityIn])
        #expect(atUp.last?.tool.type == realTool)
        #expect(Self.presses(paths.virtual, code: Self.stylus).isEmpty)
    }
}
