import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenVirtualTablet
import Testing

/// Issue #28's goals for what apps get through the virtual tablet, as `penkit bench virtual-tablet
/// traces/*.evemu` judges them, pooled over the repository's recordings: path (b), the virtual
/// tablet read by libinput with penkit's quirk, against path (a), the real device read by libinput
/// as it is by default, both against the real pen (the recording decoded without smoothing).
/// libinput's figures come from the libinput-exact decoder, not from the filter under test. The first
/// test pools the recordings the filter was chosen on: the goals hold in-sample (docs/virtual-tablet.md).
@Suite struct VirtualTabletGoalsTests {
    /// The recordings the filter was chosen on (whot/evemu-devices'); traces/ has more since.
    static let chosenOn: Set<String> = [
        "genius-easypen-i405x.evemu", "wacom-cintiq-22hdt-pen.evemu", "wacom-dth2242-pen.evemu",
        "wacom-intuos4-6x9-pad-buttons.evemu", "wacom-intuos4-6x9-stylus-drag.evemu", "wacom-intuos4-6x9-stylus-hover.evemu",
        "wacom-intuos4-6x9-stylus-tap.evemu", "wacom-intuos4-8x13-lens-drag.evemu",
    ]

    static func pooled(onlyChosenOn: Bool = true) throws -> (libinput: VirtualTabletMetrics, virtual: VirtualTabletMetrics, feel: PenFeel) {
        // The bench's default curve, far from the identity, so a curve applied twice or not at all shows.
        let feel = PenFeel(curve: PressureCurve(x1: 0, y1: 0.25, x2: 0.75, y2: 1))
        let traces = try FileManager.default.contentsOfDirectory(atPath: VirtualTabletFixtures.repository.appendingPathComponent("traces").path)
            .filter { $0.hasSuffix(".evemu") && (!onlyChosenOn || chosenOn.contains($0)) }.sorted()
        if onlyChosenOn { #expect(traces.count == chosenOn.count, "every recording the filter was chosen on is in traces/") }
        var tracks: [(real: PenTrack, libinput: PenTrack, virtual: PenTrack)] = []
        for name in traces {
            let trace = try TraceFile.load(path: VirtualTabletFixtures.repository.appendingPathComponent("traces/\(name)").path)
            for device in trace.devices {
                guard let paths = try? VirtualTabletPaths(device: device.description, events: device.events, feel: feel,
                                                          quirksFile: VirtualTabletFixtures.quirkFile) else { continue }
                tracks.append((PenTrack(paths.real), PenTrack(paths.libinput), PenTrack(paths.virtual)))
            }
        }
        #expect(tracks.count == traces.count, "every recording has a tablet the virtual tablet can carry")
        return (VirtualTabletMetrics(pairs: tracks.map { ($0.real, $0.libinput) }, feel: feel),
                VirtualTabletMetrics(pairs: tracks.map { ($0.real, $0.virtual) }, feel: feel), feel)
    }

    @Test func theVirtualTabletMeetsTheGoalsPooled() throws {
        let (a, b, _) = try Self.pooled()
        // There is something to judge: libinput's smoothing lags, and contact samples were compared.
        #expect(a.lagMilliseconds > 5)
        #expect(b.contactSamples > 500)
        #expect(b.lagMilliseconds <= 1, "lag \(b.lagMilliseconds) ms")
        #expect(b.jitterRest <= a.jitterRest, "rest jitter \(b.jitterRest) against libinput's \(a.jitterRest)")
        #expect(b.jitterSlow <= a.jitterSlow, "slow jitter \(b.jitterSlow) against libinput's \(a.jitterSlow)")
        #expect(b.jitterHover <= a.jitterHover, "hover jitter \(b.jitterHover) against libinput's \(a.jitterHover)")
        // Calm is not bought by trailing the pen where it moves slowly.
        #expect(b.rmseSlow <= a.rmseSlow, "slow RMSE \(b.rmseSlow) against libinput's \(a.rmseSlow)")
        #expect(b.rmse <= a.rmse)
        #expect(b.pressureError <= 2.0 / 65534, "pressure error \(b.pressureError)")
        #expect(b.contactMismatches == 0)
    }

    /// Pooled over every recording in traces/, those added after the filter was chosen included
    /// (traces/SOURCES.md): every goal holds there too. Slow RMSE held only since the overshoot guard
    /// (issue #43, docs/virtual-tablet.md: before it 0.277 against libinput's 0.208 mm, mostly the
    /// PenPartner's, where stage 1's quadratic carried the pen past its stops).
    @Test func theGoalsPooledOverEveryRecording() throws {
        let (a, b, _) = try Self.pooled(onlyChosenOn: false)
        #expect(b.contactSamples > 2000)
        #expect(b.lagMilliseconds <= 1, "lag \(b.lagMilliseconds) ms")
        #expect(b.jitterRest <= a.jitterRest * VirtualTabletGoals.tolerance, "rest jitter \(b.jitterRest) against libinput's \(a.jitterRest)")
        #expect(b.jitterSlow <= a.jitterSlow * VirtualTabletGoals.tolerance, "slow jitter \(b.jitterSlow) against libinput's \(a.jitterSlow)")
        #expect(b.jitterHover <= a.jitterHover * VirtualTabletGoals.tolerance, "hover jitter \(b.jitterHover) against libinput's \(a.jitterHover)")
        #expect(b.rmse <= a.rmse * VirtualTabletGoals.tolerance)
        #expect(b.rmseSlow <= a.rmseSlow * VirtualTabletGoals.tolerance, "slow RMSE \(b.rmseSlow) against libinput's \(a.rmseSlow)")
    }
}
