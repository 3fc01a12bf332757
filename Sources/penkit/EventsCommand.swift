import ArgumentParser
import Foundation
import PenKit

/// `penkit events`: everything penkitd publishes, live, like `libinput debug-events`.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print penkitd's live messages (frames, strokes, buttons, devices)."
    )

    @OptionGroup var daemon: DaemonClientOptions

    @Flag(help: "Print the raw JSON lines.")
    var json = false

    @Option(help: "Comma-separated channels: frames, updates, strokes, buttons, devices (default: all).")
    var channels: String?

    func run() async throws {
        var set: ChannelSet = []
        for name in (channels ?? SubscriptionChannel.allCases.map(\.rawValue).joined(separator: ",")).split(separator: ",") {
            guard let channel = SubscriptionChannel(rawValue: String(name)) else {
                throw ValidationError("unknown channel \(name)")
            }
            set.insert(ChannelSet(channel))
        }
        let client = try daemon.connect()
        try client.subscribe(set)
        for try await line in client.lines {
            // Printing JSON needs no parse, except of an error line, which may be fatal
            // (clients in an emulated VM keep up that way). Each line is parsed at most once.
            let message = json && !line.text.contains("\"type\":\"error\"") ? nil : PenMessage(line: line.text)
            if json {
                print(line.text)
            } else if let message {
                print(EventsFormatter.describe(message))
            }
            fflush(nil)
            if case .error(_, _, true)? = message { throw ExitCode(1) }
        }
    }
}

/// One human-readable line per message.
enum EventsFormatter {
    static func describe(_ message: PenMessage) -> String {
        switch message {
        case .hello(let version, let devices, let lastSeq, _, _):
            return "hello      protocol \(version), \(devices.count) device(s), last stroke \(lastSeq)"
        case .subscribed(let channels, let replaying):
            return "subscribed \(channels.map(\.rawValue).joined(separator: ",")) (replaying \(replaying))"
        case .device(let change):
            return "device     \(change.change.rawValue) #\(change.device.id) \(change.device.name)"
        case .proximity(let p):
            return "proximity  \(time(p.time)) #\(p.device) \(p.tool.type.rawValue) \(p.entering ? "in" : "out")"
        case .button(let b):
            return "button     \(time(b.time)) #\(b.device) \(b.button) \(b.pressed ? "pressed" : "released")"
        case .engine(let engine):
            switch engine {
            case .frame(let f):
                let s = f.sample
                let stroke = f.stroke.map { " stroke \($0)" } ?? " hover"
                return "frame      \(time(s.time)) \(fixed(s.x))/\(fixed(s.y)) force \(fixed(s.force, 3))\(stroke)"
            case .began(let b): return "began      \(time(b.time)) stroke \(b.stroke) \(b.tool.type.rawValue)"
            case .update(let u): return "update     \(time(u.sample.time)) index \(u.updateIndex)"
            case .ended(let e): return "ended      \(time(e.time)) stroke \(e.stroke)\(e.cancelled ? " cancelled" : "")"
            case .stroke(let f): return StrokeLine.describe(f)
            }
        case .dropped(let d):
            return "dropped    \(d.frames) frames, \(d.updates) updates, \(d.buttons) buttons (client too slow)"
        case .error(let code, let text, let fatal):
            return "error      \(code)\(fatal ? " (fatal)" : ""): \(text)"
        case .shutdown(let reason):
            return "shutdown   \(reason)"
        case .unknown(let type, _):
            return "\(type)"
        }
    }

    static func time(_ us: UInt64) -> String {
        let s = Double(us) / 1e6
        return fixed(s, 6) + "s"
    }

    static func fixed(_ value: Double, _ digits: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}

/// The one-line summary of a finalized stroke that `penkit strokes` and the demo print.
enum StrokeLine {
    static func describe(_ f: FinalizedStroke) -> String {
        let s = f.stroke
        let points = s.points
        let duration = (points.last?.time ?? 0) &- (points.first?.time ?? 0)
        var length = 0.0
        for i in points.indices.dropFirst() {
            let dx = points[i].x - points[i - 1].x, dy = points[i].y - points[i - 1].y
            length += (dx * dx + dy * dy).squareRoot()
        }
        let maxForce = points.map(\.force).max() ?? 0
        return "stroke #\(f.seq) id \(s.id) \(s.tool.type.rawValue): \(points.count) points, "
            + "\(EventsFormatter.fixed(length, 1)) mm in \(duration / 1000) ms, max force \(EventsFormatter.fixed(maxForce, 3))"
            + (s.cancelled ? ", cancelled" : "")
    }
}
