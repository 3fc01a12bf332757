import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenVirtualTablet

/// `penkit bench virtual-tablet --leads 0,2,4,8`: what each `virtual-tablet-lead-ms` costs against
/// the real pen, pooled over the traces: the lag left, the RMSE and slow RMSE over contact samples,
/// and at pen-up how far the virtual pen ran past where the real one lifted (LiftOvershoot), and
/// how far the end of the app's ink is from the real pen's last report in contact (with a lead as
/// without one: the lifting report first writes that report's real position back in contact).
enum VirtualTabletLeadCost {
    static func lines(_ traces: [(path: String, device: Trace.Device)], leads: [Int], feel: PenFeel, quirkFile: String,
                      filter: JitterFilter.Parameters) throws -> [String] {
        var lines = ["lead_ms  lag_ms  rmse_mm  slow_rmse_mm  overshoot_at_lift_mm(max mean)  ink_end_to_last_contact_mm  strokes"]
        for lead in leads {
            var pairs: [(real: PenTrack, path: PenTrack)] = []
            for (_, device) in traces {
                guard let paths = try? VirtualTabletPaths(device: device.description, events: device.events, feel: feel,
                                                          quirksFile: quirkFile, filter: filter,
                                                          lead: VirtualTabletLead(milliseconds: lead)) else { continue }
                pairs.append((PenTrack(paths.real), PenTrack(paths.virtual)))
            }
            let metrics = VirtualTabletMetrics(pairs: pairs, feel: feel)
            var largest = 0.0, total = 0.0, strokes = 0, liftDifference = 0.0
            for pair in pairs {
                let overshoot = LiftOvershoot(real: pair.real, path: pair.path)
                largest = max(largest, overshoot.largest)
                total += overshoot.mean * Double(overshoot.strokes)
                strokes += overshoot.strokes
                liftDifference = max(liftDifference, overshoot.liftError)
            }
            lines.append(String(format: "%7d  %6.1f  %7.3f  %12.3f  %14.3f %6.3f  %26.4f  %7d", lead, metrics.lagMilliseconds,
                                metrics.rmse, metrics.rmseSlow, largest, strokes > 0 ? total / Double(strokes) : 0,
                                liftDifference, strokes))
        }
        return lines
    }
}
