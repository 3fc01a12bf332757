import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenView

/// `penkit view`: a live page in the browser. From penkitd as an ordinary client, or from a
/// trace without a daemon (`--replay`). Prints the page's URL (with its token) and serves it.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Serve a live view of the pen on a loopback URL (from penkitd, or a trace with --replay).",
        discussion: "The URL carries a random token; only this machine's browser can reach it. See docs/view.md."
    )

    @OptionGroup var daemon: DaemonClientOptions

    @Option(help: "Where to listen: 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (loopback only; port 0: any free port).")
    var listen: String = "127.0.0.1:0"

    @Option(help: "Show this trace (evemu or libinput record YAML) instead of penkitd; each page that connects replays it from the start.")
    var replay: String?

    @Flag(help: "With --replay: play at the recorded pace (default: everything at once).")
    var realtime = false

    @Flag(inversion: .prefixedNo, help: "With --replay: libinput's 4-sample smoothing of x, y and tilt.")
    var smoothing = true

    @Option(help: "With --replay: move pressure into a second stream delayed by MS[±JITTER] milliseconds, so that force stays an estimate until its update (orange rings).")
    var latePressure: String?

    @Option(help: "Stop once no page has been connected for this many seconds (default: serve until interrupted).")
    var exitWhenIdle: Double?

    func validate() throws {
        if replay == nil && (realtime || latePressure != nil) { throw ValidationError("--realtime and --late-pressure need --replay TRACE") }
        _ = try parseLatePressure(latePressure)
        if let exitWhenIdle, !(exitWhenIdle > 0) { throw ValidationError("--exit-when-idle must be a positive number of seconds") }
        _ = try parsedListen()
    }

    private func parsedListen() throws -> ListenAddress {
        do { return try ListenAddress(parsing: listen) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let feed: any ViewFeed
        var settings: (any ViewSettingsLink)?
        if let replay {
            feed = try ReplayViewFeed(trace: replay, realtime: realtime, smoothing: smoothing,
                                      latePressure: try parseLatePressure(latePressure))
        } else {
            // Fail now, not when a page connects, when penkitd is not there; the page's
            // connections then go to the socket discovery found.
            let probe = try daemon.connect()
            probe.disconnect()
            feed = DaemonViewFeed(socketPath: probe.path)
            settings = DaemonSettingsLink(socketPath: probe.path)
        }
        let server = try await ViewServer(address: try parsedListen(), feed: feed, settings: settings)
        print("penkit view: \(server.url)")
        print("the tablet-space debug view, with its panel: \(server.debugURL)")
        print("drawing in the page's own window, paired with the browser's pen events: \(server.surfaceURL)")
        if settings != nil { print("penkitd's settings, per tablet and per tool, changed live: \(server.settingsURL)") }
        fflush(nil)  // the URL now, even into a pipe (make demo reads it)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            if let exitWhenIdle {
                group.addTask {
                    let limit = Duration.milliseconds(Int64(exitWhenIdle * 1000))
                    while server.idleDuration < limit { try await Task.sleep(for: .milliseconds(500)) }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
