import ArgumentParser
import Foundation
import PenKit

/// `penkit events`: everything penkitd publishes, live, like `libinput debug-events`.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print penkitd's live messages (frames, strokes, buttons, pads, devices, actions)."
    )

    @OptionGroup var daemon: DaemonClientOptions

    @Flag(help: "Print the raw JSON lines.")
    var json = false

    @Option(help: "Comma-separated channels: frames, updates, strokes, buttons, devices, actions (default: all).")
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
        var formatter = EventsFormatter()
        for try await line in client.lines {
            // Printing JSON needs no parse, except of an error line, which may be fatal
            // (clients in an emulated VM keep up that way). Each line is parsed at most once.
            let message = json && !line.text.contains("\"type\":\"error\"") ? nil : PenMessage(line: line.text)
            if json {
                print(line.text)
            } else if let message {
                print(formatter.describe(message))
            }
            fflush(nil)
            if message?.isFatal == true { throw ExitCode(1) }
        }
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
            + "\(EventsFormat.fixed(length, 1)) mm in \(duration / 1000) ms, max force \(EventsFormat.fixed(maxForce, 3))"
            + (s.cancelled ? ", cancelled" : "")
    }
}
