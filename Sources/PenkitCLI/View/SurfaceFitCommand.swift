import ArgumentParser
import Foundation
import PenKit

/// `penkit surface-fit --frames FRAMES.jsonl --app-events EVENTS.jsonl [--json]`: SurfacePairing
/// (docs/apps.md) on recorded streams, printing each device's map and when it was ready.
///
/// The two files carry no common clock, so their arrival order is rebuilt in two passes: the
/// first learns the clock offset with every frame remembered; the second feeds both streams in
/// the order they would have arrived (each app event just after its frame) to a fresh pairing,
/// whose readiness is what an app would have seen.
struct SurfaceFitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "surface-fit",
        abstract: "Fit the map from penkit's tablet mm to an app's surface from both streams of pen events."
    )

    @Option(help: "penkit's messages: `penkit replay --json` output (frames may carry `delivered`).")
    var frames: String

    @Option(help: "The app's pen events, one JSON object a line: t_ms, x, y, proximity (in, move, out), source.")
    var appEvents: String

    @Option(help: "The surface's width in its units (frames mapped outside are not delivered).")
    var width: Double?

    @Option(help: "The surface's height in its units.")
    var height: Double?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let inputs = try SurfaceFitInputs.load(frames: frames, appEvents: appEvents)
        var learning = SurfacePairing()
        learning.configuration.frameMemory = max(inputs.messages.count, 1)
        learning.configuration.searchLimit = max(inputs.appEvents.count, 1)
        var ignored: [SurfaceDelivery] = []
        for m in inputs.messages { learning.handle(m.message, delivered: m.delivered, into: &ignored) }
        for e in inputs.appEvents { learning.handle(e, into: &ignored) }
        learning.finish(into: &ignored)
        guard let offset = learning.clockOffset else {
            throw RuntimeFailure("no map: the app's events pair with no frames (too few events, or a motion along one line only)")
        }
        let report = Self.replay(inputs, offset: offset, width: width, height: height)
        print(json ? report.json : report.text)
    }

    struct DeviceReport {
        var device: UInt32
        var estimate: SurfaceMapEstimate?
        var readyAfter: Int?
        var readyAtAppTime: Double?
        var moves = 0
    }

    struct Report {
        var clockOffset: Double?
        var appEvents: Int
        var deliveredFrames: Int
        var devices: [DeviceReport]

        var json: String {
            var parts: [String] = []
            for d in devices {
                var fields = ["\"device\":\(d.device)", "\"ready\":\(d.estimate?.ready ?? false)"]
                if let t = d.estimate?.transform {
                    fields.append("\"transform\":[\(t.a),\(t.b),\(t.c),\(t.d),\(t.tx),\(t.ty)]")
                    fields.append("\"rms\":\(d.estimate!.rms)")
                    fields.append("\"pairs\":\(d.estimate!.pairs)")
                }
                fields.append("\"readyAfterAppEvents\":" + (d.readyAfter.map(String.init) ?? "null"))
                fields.append("\"readyAtAppTime\":" + (d.readyAtAppTime.map { "\($0)" } ?? "null"))
                fields.append("\"moves\":\(d.moves)")
                parts.append("{" + fields.joined(separator: ",") + "}")
            }
            return "{\"transformOrder\":\"a,b,c,d,tx,ty: x'=a*x+c*y+tx, y'=b*x+d*y+ty\","
                + "\"clockOffsetMs\":" + (clockOffset.map { "\($0)" } ?? "null")
                + ",\"appEvents\":\(appEvents),\"deliveredFrames\":\(deliveredFrames),\"devices\":[" + parts.joined(separator: ",") + "]}"
        }

        var text: String {
            var lines = ["clock offset: " + (clockOffset.map { "\($0) ms (app − penkit)" } ?? "unknown")]
            for d in devices {
                guard let t = d.estimate?.transform else { lines.append("device \(d.device): no map"); continue }
                lines.append("device \(d.device): x' = \(t.a)·x + \(t.c)·y + \(t.tx), y' = \(t.b)·x + \(t.d)·y + \(t.ty)")
                lines.append("  " + (d.readyAfter.map { "ready after \($0) app events" } ?? "not ready")
                             + ", \(d.estimate!.pairs) pairs, rms \(d.estimate!.rms), \(d.moves) move(s)")
            }
            lines.append("\(deliveredFrames) frames delivered of \(appEvents) app events")
            return lines.joined(separator: "\n")
        }
    }

    /// The second pass: both streams merged as they would have arrived, through a fresh pairing.
    static func replay(_ inputs: SurfaceFitInputs, offset: Double, width: Double?, height: Double?) -> Report {
        var pairing = SurfacePairing(surfaceWidth: width, surfaceHeight: height)
        var out: [SurfaceDelivery] = []
        var reports: [UInt32: DeviceReport] = [:]
        var delivered = 0
        var m = 0, e = 0
        func time(_ message: EngineMessage) -> Double? {
            if case .frame(let f) = message { return Double(f.sample.time) / 1000 } else { return nil }
        }
        var lastFrameTime = -Double.infinity
        while m < inputs.messages.count || e < inputs.appEvents.count {
            // An app event arrives once penkit's frame for its report has (0.5 ms later).
            let appAt = e < inputs.appEvents.count ? inputs.appEvents[e].time - offset + 0.5 : .infinity
            let messageAt = m < inputs.messages.count ? (time(inputs.messages[m].message) ?? lastFrameTime) : .infinity
            out.removeAll(keepingCapacity: true)
            if messageAt <= appAt {
                let next = inputs.messages[m]
                lastFrameTime = messageAt
                pairing.handle(next.message, delivered: next.delivered, into: &out)
                m += 1
            } else {
                pairing.handle(inputs.appEvents[e], into: &out)
                e += 1
            }
            for delivery in out {
                switch delivery {
                case .frame: delivered += 1
                case .map(let estimate):
                    var r = reports[estimate.device] ?? DeviceReport(device: estimate.device)
                    if estimate.change == .ready, r.readyAfter == nil {
                        r.readyAfter = estimate.appEvents
                        r.readyAtAppTime = inputs.appEvents[max(e - 1, 0)].time
                    }
                    if estimate.change == .moved { r.moves += 1 }
                    reports[estimate.device] = r
                default: break
                }
            }
        }
        out.removeAll()
        pairing.finish(into: &out)
        delivered += out.filter { if case .frame = $0 { true } else { false } }.count
        let devices = pairing.deviceIDs.map { id -> DeviceReport in
            var r = reports[id] ?? DeviceReport(device: id)
            r.estimate = pairing.estimate(device: id)
            return r
        }
        return Report(clockOffset: pairing.clockOffset, appEvents: inputs.appEvents.count, deliveredFrames: delivered,
                      devices: devices)
    }
}
