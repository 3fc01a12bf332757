import Testing
@testable import PenKit

// Expected values are worked out by hand from the table in InkResponse.swift.
@Test func penWidthFollowsForceAndThinsWithSpeed() {
    let pen = Ink(.pen, width: 2)
    #expect(pen.size(force: 0.5, altitude: .pi / 2, azimuth: 0, speed: 0) == 2)
    #expect(pen.size(force: 0, altitude: .pi / 2, azimuth: 0, speed: 0) == 0.5)
    #expect(pen.size(force: 1, altitude: 0.2, azimuth: 3, speed: 1000) == 1.75)
    #expect(pen.opacity(force: 0.1, altitude: 0.3, azimuth: 1, speed: 500) == 1)
}

@Test func pencilWidensWhenTiltedAndDarkensWithForce() {
    let pencil = Ink(.pencil, color: InkColor(red: 0, green: 0, blue: 0, alpha: 0.5), width: 1)
    #expect(pencil.size(force: 0.5, altitude: .pi / 2, azimuth: 0, speed: 0) == 1)
    #expect(pencil.size(force: 0.5, altitude: .pi / 4, azimuth: 0, speed: 0) == 2.5)
    #expect(abs(pencil.opacity(force: 0.25, altitude: 1, azimuth: 0, speed: 0) - 0.5 * 0.4) < 1e-12)
    #expect(pencil.opacity(force: 1, altitude: 1, azimuth: 0, speed: 0) == 0.5)
}

@Test func markerWidthFollowsForceNotTheNibsDirectionAndStreaksWhenFast() {
    let marker = Ink(.marker, width: 4)
    // 4 · (0.8 + 0.4 · 0.5) = 4 at any azimuth or roll: the chisel turns with the stroke (StrokeOutline), not the pen.
    for azimuth in [0, Double.pi / 4, 3 * Double.pi / 4] {
        #expect(abs(marker.size(force: 0.5, altitude: 1, azimuth: azimuth, roll: 1, speed: 0) - 4) < 1e-12)
    }
    #expect(abs(marker.size(force: 1, altitude: 1, azimuth: 0, speed: 0) - 4.8) < 1e-12)
    #expect(abs(marker.opacity(force: 0.5, altitude: 1, azimuth: 0, speed: 0) - 0.6) < 1e-12)
    #expect(abs(marker.opacity(force: 0.5, altitude: 1, azimuth: 0, speed: 5000) - 0.3) < 1e-12)
    #expect(Ink.InkType.marker.nibAspect < 1 && Ink.InkType.pen.nibAspect == 1)
}

@Test func theFourNewerInksFollowTheirRows() {
    let half = InkColor(red: 0, green: 0, blue: 0, alpha: 0.5)
    let monoline = Ink(.monoline, color: half, width: 2)
    #expect(monoline.size(force: 0, altitude: 0.2, azimuth: 1, roll: 1, speed: 3000) == 2)
    #expect(monoline.size(force: 1, altitude: .pi / 2, azimuth: 0, speed: 0) == 2)
    #expect(monoline.opacity(force: 0, altitude: 0.2, azimuth: 1, speed: 3000) == 0.5)
    let fountain = Ink(.fountainPen, width: 2)
    #expect(abs(fountain.size(force: 0, altitude: 1, azimuth: 0, speed: 0) - 0.8) < 1e-12)
    #expect(abs(fountain.size(force: 1, altitude: 1, azimuth: 2, speed: 900) - 3.2) < 1e-12)
    #expect(Ink.InkType.fountainPen.nibAspect < 1)
    let watercolor = Ink(.watercolor, color: half, width: 10)
    #expect(abs(watercolor.size(force: 0.5, altitude: .pi / 2, azimuth: 0, speed: 0) - 10) < 1e-12)
    #expect(abs(watercolor.size(force: 0.5, altitude: .pi / 4, azimuth: 0, speed: 0) - 15) < 1e-12)
    #expect(abs(watercolor.opacity(force: 0, altitude: 1, azimuth: 0, speed: 0) - 0.125) < 1e-12)
    #expect(abs(watercolor.opacity(force: 1, altitude: 1, azimuth: 0, speed: 0) - 0.3) < 1e-12)
    let crayon = Ink(.crayon, width: 4)
    #expect(abs(crayon.size(force: 0.5, altitude: .pi / 2, azimuth: 0, speed: 0) - 4) < 1e-12)
    #expect(abs(crayon.size(force: 0.5, altitude: .pi / 4, azimuth: 0, speed: 0) - 8) < 1e-12)
    #expect(abs(crayon.opacity(force: 0, altitude: 1, azimuth: 0, speed: 0) - 0.5) < 1e-12)
    #expect(crayon.opacity(force: 1, altitude: 1, azimuth: 0, speed: 0) == 1)
}

@Test func strokeAssemblyComputesSpeedFromNeighbours() {
    let samples = [
        Sample(time: 0, x: 0, y: 0, force: 0.5), Sample(time: 10_000, x: 3, y: 4, force: 0.5),
        Sample(time: 20_000, x: 6, y: 8, force: 0.5),
    ]
    // 10 mm in 20 ms = 500 mm/s at the middle sample; pen width 1 → 1 / 1.5.
    let stroke = Stroke(id: 1, tool: ToolIdentity(type: .pen), ink: Ink(.pen, width: 1), cancelled: false, samples: samples)
    #expect(abs(stroke.points[1].size - 1 / 1.5) < 1e-12)
    #expect(stroke.path.controlPoints.count == 3)
    #expect(stroke.creationTime == 0)
}

@Test func rollChangesNoInkAndTheEraserNeverShows() {
    for type in Ink.InkType.allCases {
        let ink = Ink(type)
        #expect(ink.size(force: 0.5, altitude: 1, azimuth: 0, roll: 1, speed: 0) == ink.size(force: 0.5, altitude: 1, azimuth: 0, speed: 0))
    }
    let eraser = Ink(.eraser, width: 8)
    #expect(eraser.size(force: 0.1, altitude: 0.3, azimuth: 2, roll: 1, speed: 900) == 8)
    #expect(eraser.opacity(force: 1, altitude: 1, azimuth: 0, speed: 0) == 0)
}

@Test func widthsAreClampedToTheirTypesRange() {
    #expect(Ink(.pen, width: 0.01).width == 0.1)
    #expect(Ink(.marker, width: 0.5).width == 1)
    #expect(Ink(.eraser, width: 100).width == 50)
    #expect(Ink(.pencil, width: .nan).width == Ink.InkType.pencil.defaultWidth)
}

@Test func inkSpecsReadTypeColourAndWidth() throws {
    let marker = try Ink(spec: "marker #ffd000ff 6")
    #expect(marker.type == .marker && marker.width == 6)
    #expect(marker.color == InkColor(red: 1, green: Double(0xd0) / 255, blue: 0, alpha: 1))
    #expect(try Ink(spec: "pen 1040c0 0.7").color == InkColor(red: Double(0x10) / 255, green: Double(0x40) / 255, blue: Double(0xc0) / 255))
    #expect(try Ink(spec: "pencil").width == 0.8)
    #expect(try Ink(spec: marker.spec) == marker)
    #expect(throws: Ink.SpecError.self) { try Ink(spec: "chalk") }
    // The seven drawing inks of PencilKit, by the names `--ink` takes.
    for name in ["pen", "pencil", "marker", "monoline", "fountainPen", "watercolor", "crayon"] {
        let ink = try Ink(spec: "\(name) #203060ff")
        #expect(ink.type.rawValue == name && ink.width == ink.type.defaultWidth)
        #expect(try Ink(spec: ink.spec) == ink)
    }
    #expect(throws: Ink.SpecError.self) { try Ink(spec: "pen 300") }  // outside 0.1 … 20, not a colour
    #expect(throws: Ink.SpecError.self) { try Ink(spec: "pen #12") }
}
