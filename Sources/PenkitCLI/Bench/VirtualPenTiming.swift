import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenVirtualTablet

/// `penkit bench virtual-tablet --timing`: what the virtual tablet adds to each pen report on
/// penkitd's input thread before the write to /dev/uinput: `VirtualPen.translate` (jitter filter,
/// pressure curve, mapping, the events it writes) over every report of each recording, as
/// `VirtualTabletStage` runs it. The write itself needs a uinput device and is not timed here.
enum VirtualPenTiming {
    static let rounds = 25

    static func lines(_ rows: [(trace: String, paths: VirtualTabletPaths)], feel: PenFeel,
                      filter: JitterFilter.Parameters) -> [String] {
        var lines = ["virtual tablet's own work per pen report (VirtualPen.translate; the uinput write not included), "
                     + "CPU median of \(rounds) rounds, and each call's wall time (the clock's own ~20 ns included):"]
        var pooledCPU = 0.0
        var pooledReports = 0
        var pooledCalls: [UInt64] = []
        for row in rows {
            let real = row.paths.real
            guard !real.isEmpty else { continue }
            var calls: [UInt64] = []
            calls.reserveCapacity(real.count)
            var scratch: [EvdevEvent] = []
            scratch.reserveCapacity(64)
            let cpu = BenchMedian.seconds(rounds) {
                var pen = VirtualPen(layout: row.paths.layout, filter: filter, smoothing: row.paths.libinputSmooths)
                for event in real {
                    scratch.removeAll(keepingCapacity: true)
                    pen.translate(event, mapping: nil, feel: feel, into: &scratch)
                }
            }
            // One more round timing each call, for the spread.
            var pen = VirtualPen(layout: row.paths.layout, filter: filter, smoothing: row.paths.libinputSmooths)
            for event in real {
                let before = MonotonicClock.nanoseconds()
                scratch.removeAll(keepingCapacity: true)
                pen.translate(event, mapping: nil, feel: feel, into: &scratch)
                calls.append(MonotonicClock.nanoseconds() &- before)
            }
            pooledCPU += cpu
            pooledReports += real.count
            pooledCalls += calls
            lines.append(line((row.trace as NSString).lastPathComponent, reports: real.count, cpu: cpu, calls: calls))
        }
        if rows.count > 1 { lines.append(line("all \(rows.count) recordings", reports: pooledReports, cpu: pooledCPU, calls: pooledCalls)) }
        return lines
    }

    private static func line(_ name: String, reports: Int, cpu: Double, calls: [UInt64]) -> String {
        String(format: "  %@: %d reports, %.0f ns CPU each; a call p50 %llu ns, p99 %llu ns, max %llu ns",
               name, reports, cpu / Double(max(reports, 1)) * 1e9, BenchLatencyCommand.percentile(calls, 0.5),
               BenchLatencyCommand.percentile(calls, 0.99), calls.max() ?? 0)
    }
}
