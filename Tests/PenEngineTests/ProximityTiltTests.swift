import Foundation
import Testing
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// The first sample of a proximity carries the tilt its own event reports, measured,
/// whether the tool arrives hovering, already in contact, or as an eraser flipped onto
/// the surface. Expected angles: the W3C conversion of real libinput's tilt.
@Suite struct ProximityTiltTests {
    static let tracesWithTilt = ["wacom-cintiq-22hdt-pen.evemu", "wacom-intuos4-6x9-stylus-drag.evemu",
                                 "wacom-intuos4-6x9-stylus-hover.evemu", "wacom-intuos4-6x9-stylus-tap.evemu"]

    @Test(arguments: tracesWithTilt)
    func everyProximityInSampleIsItsOwnMeasuredTilt(trace: String) throws {
        let (source, reference) = try Traces.reference(trace)
        #expect(source == "libinput")
        let frames = EngineReplay().messages(try Traces.inputs(trace)).frames
        let entries = reference.filter { $0.type == "proximity" && $0.state == "in" }
        #expect(!entries.isEmpty)
        for entry in entries {
            let frame = try #require(frames.first { $0.tool == entry.tool && $0.sample.time == entry.time })
            let tilt = (try #require(entry.tiltX), try #require(entry.tiltY))
            if tilt == (-64, -64) || tilt == (0, 0) {
                // libinput's value for a pen that sent no tilt (docs/strokes.md): still unknown.
                #expect(frame.sample.expectingUpdates.isSuperset(of: [.azimuth, .altitude]), "\(trace) \(entry.time)")
                continue
            }
            let expected = TiltConversion.azimuthAltitude(tiltX: try #require(entry.tiltX), tiltY: try #require(entry.tiltY))
            #expect(!frame.sample.estimated.contains(.azimuth) && !frame.sample.estimated.contains(.altitude),
                    "\(trace) \(entry.time): measured tilt marked as an estimate")
            #expect(frame.sample.expectingUpdates.isDisjoint(with: [.azimuth, .altitude]))
            #expect(abs(frame.sample.azimuth - expected.azimuth) < 1e-9, "\(trace) \(entry.time)")
            #expect(abs(frame.sample.altitude - expected.altitude) < 1e-9, "\(trace) \(entry.time)")
        }
    }

    /// The Cintiq's eraser end was flipped onto the surface: BTN_TOUCH is in the very frame
    /// that brings BTN_TOOL_RUBBER in (trace time 1369413642.537648).
    @Test func eraserFlippedOntoTheSurfaceStartsWithItsOwnTilt() throws {
        let trace = "wacom-cintiq-22hdt-pen.evemu"
        let flip: UInt64 = 1_369_413_642_537_648
        let entry = try #require(try Traces.reference(trace).events.first {
            $0.type == "proximity" && $0.state == "in" && $0.time == flip
        })
        #expect(entry.tool.type == .eraser)
        let messages = EngineReplay().messages(try Traces.inputs(trace))
        let first = try #require(messages.frames.first { $0.tool == entry.tool && $0.sample.time >= flip })
        #expect(first.sample.time == flip)
        let expected = TiltConversion.azimuthAltitude(tiltX: try #require(entry.tiltX), tiltY: try #require(entry.tiltY))
        #expect(abs(first.sample.altitude - expected.altitude) < 1e-9 && abs(first.sample.azimuth - expected.azimuth) < 1e-9)
        #expect(first.sample.estimated.isDisjoint(with: [.azimuth, .altitude]))
        // Nothing "updates" the tilt of that proximity's samples later.
        #expect(!messages.updates.contains { $0.sample.time == flip && $0.updated.contains(.azimuth) })
    }

    /// The tap trace cut to start in contact (Tests/Fixtures/in-contact): the stroke's first
    /// point is the tilt libinput reports for that frame, never an estimate backfilled later.
    @Test func strokeThatStartsInContactBeginsWithItsOwnTilt() throws {
        let fixtures = Traces.repoRoot.appendingPathComponent("Tests/Fixtures")
        let path = fixtures.appendingPathComponent("in-contact/wacom-intuos4-6x9-stylus-tap.in-contact.evemu").path
        let trace = try TraceFile.load(path: path)
        let device = try #require(trace.devices.first)
        let events = try TabletDecoder.decode(device.events, device: device.description)
        #expect(events.first?.kind == .proximity)
        let messages = EngineReplay().messages(events.map { EngineReplay.Input(device: 0, event: $0) })

        let landing: UInt64 = 1_364_787_604_485_333
        let oracle = try String(contentsOf: fixtures.appendingPathComponent(
            "libinput/wacom-intuos4-6x9-stylus-tap.nosmooth.jsonl"), encoding: .utf8)
        let libinput = try #require(try oracle.split(separator: "\n").compactMap {
            try ReferenceEvent(jsonLine: String($0))
        }.first { $0.time == landing && $0.type == "tip" })
        #expect(libinput.state == "down")
        let expected = TiltConversion.azimuthAltitude(tiltX: try #require(libinput.tiltX), tiltY: try #require(libinput.tiltY))

        let stroke = try #require(messages.finalized.first?.stroke)
        let point = try #require(stroke.points.first)
        #expect(point.time == landing)
        #expect(abs(point.azimuth - expected.azimuth) < 1e-9)
        #expect(abs(point.altitude - expected.altitude) < 1e-9)
        #expect(point.estimated.isDisjoint(with: [.azimuth, .altitude]))
        let proximityIn = try #require(messages.frames.first)
        #expect(proximityIn.sample.estimated.isDisjoint(with: [.azimuth, .altitude]))
        #expect(messages.updates.allSatisfy { $0.updated.isDisjoint(with: [.azimuth, .altitude]) })
    }
}
