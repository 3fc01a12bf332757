import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit
import PenVirtualTablet

/// `penkit bench virtual-tablet TRACE...`: what an app receives for each trace along the two ways
/// out, the libinput default (a) and penkit's virtual tablet (b), judged against the real pen
/// (the raw decode): lag, RMSE, jitter at rest, in slow motion and in hover, and the pressure
/// delivered against the configured curve (docs/virtual-tablet.md defines each figure).
struct BenchVirtualTabletCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "virtual-tablet",
        abstract: "What an app receives through libinput's default path and through penkit's virtual tablet, against the real pen."
    )

    @Argument(help: "evemu or libinput record traces (pen tablets; other devices are skipped).")
    var traces: [String]

    @Option(help: "The pressure curve the virtual tablet applies (X1,Y1,X2,Y2, as penkitd.conf's pressure-curve). The default is a soft curve, so that a curve applied twice or not at all shows.")
    var pressureCurve = "0,0.25,0.75,1"

    @Option(help: "The tool's tip-threshold (raw pressure at which the virtual pen touches); default: libinput's tip.")
    var tipThreshold: Double?

    @Option(help: ArgumentHelp("Experimental: the jitter filter's MEAN_COUNT,FIT_REACH,MIN_CUTOFF,SPEED_COEFFICIENT,SPEED_REACH (per report), then optionally its overshoot guard's REACH (0: none),SHARPNESS,STEP_ALLOWANCE, for tuning.", visibility: .hidden))
    var filter: String?

    @Option(help: "What each virtual-tablet-lead-ms costs: comma-separated leads (ms, 0 to \(VirtualTabletLead.largestMilliseconds)), e.g. 0,2,4,8; lead 0 is added first when missing.")
    var leads: String?

    @Flag(help: "One JSON object per path, pooled over the traces.")
    var json = false

    @Flag(help: "Print path (b)'s events as the compositor's libinput reports them (TabletEvent JSON lines), for the e2e VM's comparison.")
    var events = false

    @Option(help: "With --events: the path whose events to print, virtual (b) or libinput (a, the real tablet read directly).")
    var eventsOf: EventsPath = .virtual

    @Option(help: "With --events: the virtual tablet's virtual-tablet-lead-ms (0 to \(VirtualTabletLead.largestMilliseconds)); 0, the default, is no lead.")
    var lead = 0

    @Option(help: "With --events: what barrel buttons 1, 2, 3 do on the virtual tablet, comma-separated as penkitd.conf's button-N (left, middle, right, eraser, none; empty: as pressed), e.g. right,eraser.")
    var buttons: String?

    @Option(help: "An app's pen (JSON lines: time µs in the trace's clock, x and y mm, pressure, tip, proximity; scripts/desktop/desktop-results.py writes them): print its figures against the real pen of the one trace given, as one JSON object with path \"app\".")
    var appTrack: String?

    enum EventsPath: String, ExpressibleByArgument { case virtual, libinput }

    @Flag(help: "Also time the virtual tablet's own work per pen report (VirtualPen.translate; the write to /dev/uinput is not included).")
    var timing = false

    func run() throws {
        let numbers = pressureCurve.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers.allSatisfy({ (0...1).contains($0) }) else {
            throw ValidationError("--pressure-curve must be X1,Y1,X2,Y2, each from 0 to 1")
        }
        if let tipThreshold, !(tipThreshold > 0 && tipThreshold <= 1) {
            throw ValidationError("--tip-threshold must be in (0, 1]")
        }
        guard (0...VirtualTabletLead.largestMilliseconds).contains(lead) else {
            throw ValidationError("--lead takes whole ms from 0 to \(VirtualTabletLead.largestMilliseconds)")
        }
        let feel = PenFeel(curve: PressureCurve(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]),
                           tipThreshold: tipThreshold, buttons: try Self.barrelButtons(buttons))
        let quirkFile = NSTemporaryDirectory() + "penkit-bench-\(getpid())-\(VirtualTabletQuirk.fileName)"
        try VirtualTabletQuirk.contents.write(toFile: quirkFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: quirkFile) }

        var parameters = JitterFilter.Parameters.standard
        if let filter {
            let f = filter.split(separator: ",").compactMap { Double($0) }
            let guardNumbers = f.dropFirst(5)
            guard [5, 6, 7, 8].contains(f.count), f.count == filter.split(separator: ",").count,
                  let meanCount = Int(exactly: f[0]), let fitReach = Int(exactly: f[1]),
                  let speedReach = Int(exactly: f[4]), min(meanCount, fitReach, speedReach) >= 1,
                  f[2].isFinite, f[2] > 0, f[3].isFinite, f[3] >= 0,
                  guardNumbers.prefix(2).allSatisfy({ Int(exactly: $0).map { (0...64).contains($0) } ?? false }),
                  guardNumbers.dropFirst(2).allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                throw ValidationError("--filter takes MEAN_COUNT,FIT_REACH (whole, ≥ 1),MIN_CUTOFF (> 0),SPEED_COEFFICIENT (≥ 0),SPEED_REACH (whole, ≥ 1), then optionally GUARD_REACH,GUARD_SHARPNESS (whole, 0 to 64),GUARD_STEP_ALLOWANCE (≥ 0)")
            }
            parameters = JitterFilter.Parameters(meanCount: meanCount, fitReach: fitReach, minimumCutoff: f[2],
                                                 speedCoefficient: f[3], speedReach: speedReach)
            if f.count > 5 { parameters.overshootGuardReach = Int(f[5]) }
            if f.count > 6 { parameters.overshootGuardSharpness = Int(f[6]) }
            if f.count > 7 { parameters.overshootGuardStepAllowance = f[7] }
        }
        if let leads {
            let values = leads.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil && (0...VirtualTabletLead.largestMilliseconds).contains($0!) }) else {
                throw ValidationError("--leads takes whole ms from 0 to \(VirtualTabletLead.largestMilliseconds), comma-separated")
            }
            var traced: [(path: String, device: Trace.Device)] = []
            for path in traces { for device in try TraceFile.load(path: path, readers: .all).devices { traced.append((path, device)) } }
            let ordered = [0] + values.compactMap { $0 }.filter { $0 != 0 }
            for line in try VirtualTabletLeadCost.lines(traced, leads: ordered, feel: feel, quirkFile: quirkFile, filter: parameters) {
                print(line)
            }
            return
        }
        var rows: [(trace: String, paths: VirtualTabletPaths)] = []
        for path in traces {
            let trace = try TraceFile.load(path: path, readers: .all)
            for device in trace.devices {
                do {
                    rows.append((path, try VirtualTabletPaths(device: device.description, events: device.events,
                                                              feel: feel, quirksFile: quirkFile, filter: parameters,
                                                              lead: VirtualTabletLead(milliseconds: events ? lead : 0))))
                } catch let error as VirtualTabletBenchError {
                    FileHandle.standardError.write(Data("penkit bench virtual-tablet: \(path): skipped: \(error)\n".utf8))
                }
            }
        }
        if events {
            for row in rows {
                for event in eventsOf == .virtual ? row.paths.virtual : row.paths.libinput { print(event.jsonLine()) }
            }
            return
        }
        if let appTrack {
            guard rows.count == 1, let row = rows.first else { throw ValidationError("--app-track takes exactly one pen tablet trace") }
            let app = try AppTrackFile.load(path: appTrack)
            print(Self.json("app", VirtualTabletMetrics(pairs: [(PenTrack(row.paths.real), app)], feel: feel), traces: 1))
            return
        }
        guard !rows.isEmpty else { throw ValidationError("no pen tablet in the traces given") }
        let pooledA = VirtualTabletMetrics(pairs: rows.map { (PenTrack($0.paths.real), PenTrack($0.paths.libinput)) }, feel: feel)
        let pooledB = VirtualTabletMetrics(pairs: rows.map { (PenTrack($0.paths.real), PenTrack($0.paths.virtual)) }, feel: feel)
        if json {
            print(Self.json("libinput", pooledA, traces: rows.count))
            print(Self.json("virtual", pooledB, traces: rows.count))
            return
        }
        print("path      lag_ms  rmse_mm  slow_rmse_mm  jitter_mm(rest slow hover)    pressure_err  contact_mismatch  trace")
        var verdicts: [(name: String, goals: VirtualTabletGoals)] = []
        for row in rows {
            let real = PenTrack(row.paths.real)
            let a = VirtualTabletMetrics(pairs: [(real, PenTrack(row.paths.libinput))], feel: feel)
            let b = VirtualTabletMetrics(pairs: [(real, PenTrack(row.paths.virtual))], feel: feel)
            let name = (row.trace as NSString).lastPathComponent
            print(Self.line("libinput", a, name))
            print(Self.line("virtual", b, name + (row.paths.libinputSmooths ? "" : " (libinput does not smooth it: passed raw)")))
            verdicts.append((name, VirtualTabletGoals(libinput: a, virtual: b, ownTipThreshold: tipThreshold != nil)))
        }
        print(Self.line("libinput", pooledA, "all \(rows.count) recordings"))
        print(Self.line("virtual", pooledB, "all \(rows.count) recordings"))
        let pooled = VirtualTabletGoals(libinput: pooledA, virtual: pooledB, ownTipThreshold: tipThreshold != nil)
        print(Self.goalsLine(verdicts, pooled: pooled))
        if timing {
            for line in VirtualPenTiming.lines(rows.map { ($0.trace, $0.paths) }, feel: feel, filter: parameters) { print(line) }
        }
    }

    /// `--buttons right,eraser`: barrel buttons 1…3 in order, an empty item left as pressed.
    static func barrelButtons(_ list: String?) throws -> BarrelButtons {
        var buttons = BarrelButtons()
        guard let list else { return buttons }
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count <= 3 else { throw ValidationError("--buttons takes at most 3 actions (buttons 1, 2, 3)") }
        for (i, item) in items.enumerated() where !item.isEmpty {
            guard let action = BarrelButtonAction(rawValue: item) else {
                throw ValidationError("--buttons: '\(item)' is not one of \(BarrelButtonAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            buttons[i + 1] = action
        }
        return buttons
    }

    /// Issue #43's goals, judged for each recording and for the pool: the virtual tablet no worse
    /// than libinput on any figure (× 1.02) and lagging at most 1 ms.
    static func goalsLine(_ verdicts: [(name: String, goals: VirtualTabletGoals)], pooled: VirtualTabletGoals) -> String {
        let failing = verdicts.filter { !$0.goals.holds }
        let perRecording = failing.isEmpty
            ? "holds on all \(verdicts.count)"
            : "FAILS on \(failing.count) of \(verdicts.count): " + failing.map { "\($0.name) (\($0.goals.failures.joined(separator: ", ")))" }.joined(separator: "; ")
        let pool = pooled.holds ? "holds" : "FAILS (\(pooled.failures.joined(separator: ", ")))"
        return "goals (virtual lag ≤ 1 ms; rmse, slow rmse, jitter at rest, slow and hover ≤ libinput's × \(VirtualTabletGoals.tolerance); "
            + "pressure curve exact; contact as the real pen's): per recording \(perRecording); pooled \(pool)"
    }

    static func line(_ path: String, _ m: VirtualTabletMetrics, _ trace: String) -> String {
        String(format: "%-8@  %6.1f  %7.3f  %12.3f  %6.4f %6.4f %6.4f %6.4f    %.6f      %5d             %@",
               path as NSString, m.lagMilliseconds, m.rmse, m.rmseSlow, m.jitter, m.jitterRest, m.jitterSlow, m.jitterHover,
               m.pressureError, m.contactMismatches, trace as NSString)
    }

    static func json(_ path: String, _ m: VirtualTabletMetrics, traces: Int) -> String {
        func n(_ v: Double) -> String { String(format: "%.6g", v) }
        return #"{"path":"\#(path)","lag_ms":\#(n(m.lagMilliseconds)),"rmse_mm":\#(n(m.rmse)),"slow_rmse_mm":\#(n(m.rmseSlow)),"jitter_mm":\#(n(m.jitter)),"#
            + #""jitter_rest_mm":\#(n(m.jitterRest)),"jitter_slow_mm":\#(n(m.jitterSlow)),"jitter_hover_mm":\#(n(m.jitterHover)),"#
            + #""pressure_error":\#(n(m.pressureError)),"contact_mismatches":\#(m.contactMismatches),"#
            + #""contact_samples":\#(m.contactSamples),"recordings":\#(traces)}"#
    }
}
