import Foundation
import PenKit
@testable import penkitd
import Testing

/// Steps of a finger's motion on a ring or strip (`PadMotion`), on the positions libinput reports
/// for the pad traces of traces/pads/: the Intuos5's ABS_WHEEL 10, 12 … 20 (range 0..71) and the
/// Intuos3's ABS_RX 1, 2, 4 … 64 (maximum 4096), each ended by the finger's lift (-1).
struct PadMotionTests {
    /// libinput's ring position (evdev-tablet-pad.c): 0 at the ring's northernmost point, a
    /// quarter turn from Wacom's 0, degrees clockwise.
    static func libinputRing(_ value: Double, range: Double = 72) -> Double {
        var turn = value / range - 0.25
        if turn < 0 { turn += 1 }
        return turn * 360
    }

    /// libinput's strip position: the kernel sets one bit per position, so log2(value) of log2(maximum).
    static func libinputStrip(_ value: Double, maximum: Double = 4096) -> Double {
        log2(value) / log2(maximum)
    }

    static let intuos5Ring = [10.0, 12, 14, 16, 18, 20].map { libinputRing($0) } + [-1]
    static let intuos3Strip = [1.0, 2, 4, 8, 16, 32, 64].map { libinputStrip($0) } + [-1]

    func steps(_ positions: [Double], _ kind: PadEvent.Kind, step: Double, number: UInt32 = 0,
               device: Int = 1, motion: inout PadMotion) -> [Int] {
        positions.enumerated().map { index, position in
            motion.steps(of: PadEvent(kind: kind, time: UInt64(index) * 20_000, number: number,
                                      position: position, fromFinger: true),
                         device: device, step: step)
        }
    }

    func steps(_ positions: [Double], _ kind: PadEvent.Kind, step: Double) -> [Int] {
        var motion = PadMotion()
        return steps(positions, kind, step: step, motion: &motion)
    }

    @Test func theRingTraceTurnsClockwiseAcrossNorthOneStepPerTenDegrees() {
        // 320°, 330°, 340°, 350°, 0°, 10°: the turn crosses the ring's 0/360.
        #expect(Self.intuos5Ring.prefix(6).map { Int($0.rounded()) } == [320, 330, 340, 350, 0, 10])
        #expect(steps(Self.intuos5Ring, .ring, step: 10) == [0, 1, 1, 1, 1, 1, 0])
    }

    @Test func aLargerRingStepCarriesWhatIsLeftOver() {
        // 10° moves against 15° steps: 10 (none), 20 (one, 5 left), 15 (one), 10 (none), 20 (one).
        #expect(steps(Self.intuos5Ring, .ring, step: 15) == [0, 0, 1, 1, 0, 1, 0])
    }

    @Test func theRingTracePlayedBackwardsIsCounterClockwise() {
        let backwards = Array(Self.intuos5Ring.dropLast().reversed()) + [-1]
        #expect(steps(backwards, .ring, step: 10) == [0, -1, -1, -1, -1, -1, 0])
    }

    @Test func theStripTraceSlidesDownOneStepPerTenthOfTheStrip() {
        // 0, 1/12 … 6/12: half the strip, five tenths of it.
        #expect(steps(Self.intuos3Strip, .strip, step: 0.1) == [0, 0, 1, 1, 1, 1, 1, 0])
        #expect(steps(Self.intuos3Strip, .strip, step: 0.5) == [0, 0, 0, 0, 0, 0, 1, 0])
    }

    @Test func aStripIsNeverWrapped() {
        // From near the bottom to near the top is most of the strip upwards, not a short way down.
        #expect(steps([0.95, 0.05], .strip, step: 0.1) == [0, -9])
    }

    @Test func liftingTheFingerEndsTheMotion() {
        var motion = PadMotion()
        #expect(steps([320, 335, -1], .ring, step: 10, motion: &motion) == [0, 1, 0])
        // A new touch elsewhere moves nothing; the 5° left from before are gone.
        #expect(steps([90, 95, 100], .ring, step: 10, motion: &motion) == [0, 0, 1])
    }

    @Test func turningBackStartsANewCount() {
        // +8 (none), -6: not 2 short of a step back, a new count: 6 counter-clockwise, then 4 more: one.
        #expect(steps([100, 108, 102, 98], .ring, step: 10) == [0, 0, 0, -1])
    }

    @Test func ringsStripsAndDevicesCountApart() {
        var motion = PadMotion()
        #expect(steps([0, 5], .ring, step: 10, number: 0, motion: &motion) == [0, 0])
        #expect(steps([0, 5], .ring, step: 10, number: 1, motion: &motion) == [0, 0])
        #expect(steps([0.2], .ring, step: 10, device: 2, motion: &motion) == [0])
        #expect(steps([10], .ring, step: 10, number: 0, motion: &motion) == [1])
        #expect(steps([0.3], .strip, step: 0.1, motion: &motion) == [0])
        motion.remove(device: 1)
        #expect(steps([20], .ring, step: 10, number: 1, motion: &motion) == [0])
    }

    @Test func theConfigMapsEachDirectionAndAModeBeforeEveryMode() throws {
        var map = ActionMap()
        for (key, value) in [("action-ring-0-cw", "zoomIn"), ("action-ring-0-cw-mode-1", "myApp.brushBigger"),
                             ("action-ring-0-ccw", "zoomOut"), ("action-strip-1-up", "scrollUp"),
                             ("action-ring-step", "15"), ("action-strip-step", "0.25")] {
            #expect(try map.set(key: key, value: value))
        }
        #expect(map.ringStepDegrees == 15 && map.stripStep == 0.25)
        let cw = PadMotionTrigger(control: .ring, number: 0, increasing: true)
        #expect(map.motionAction(cw, mode: 0)?.action == "zoomIn")
        #expect(map.motionAction(cw, mode: 1)?.action == "myApp.brushBigger")
        #expect(map.motionAction(cw, mode: 1)?.trigger.name == "ring-0-cw-mode-1")
        #expect(map.motionAction(PadMotionTrigger(control: .ring, number: 0, increasing: false), mode: 3)?.action == "zoomOut")
        #expect(map.motionAction(PadMotionTrigger(control: .strip, number: 1, increasing: false), mode: 0)?.trigger.name == "strip-1-up")
        #expect(map.motionAction(PadMotionTrigger(control: .strip, number: 1, increasing: true), mode: 0) == nil)
        #expect(map.motionAction(PadMotionTrigger(control: .ring, number: 1, increasing: true), mode: 0) == nil)
    }

    @Test func badMotionKeysAreRefused() {
        for (key, value) in [("action-ring-0-left", "zoomIn"), ("action-strip-0-cw", "zoomIn"),
                             ("action-ring-00-cw", "zoomIn"), ("action-ring-0-cw-mode-", "zoomIn"),
                             ("action-ring-0-cw", "\"quoted\""), ("action-ring-step", "0"),
                             ("action-ring-step", "181"), ("action-strip-step", "2"), ("action-strip-step", "x")] {
            var map = ActionMap()
            #expect(throws: ConfigValueError.self, "\(key) = \(value)") { try map.set(key: key, value: value) }
            #expect(map == ActionMap())
        }
    }
}
