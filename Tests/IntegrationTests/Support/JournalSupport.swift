import Foundation

/// A state directory that outlives one penkitd, as the journal does across restarts.
final class StateDirectoryFixture {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-state-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var journal: String { path + "/journal" }

    /// The journal's segment files, oldest first.
    func segments() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasPrefix("segment-") }.sorted()
            .map { journal + "/" + $0 }
    }
}

/// Replays `trace` once to one strokes client and returns the stroke lines it was sent.
func strokesOfOneRun(_ trace: String, state: StateDirectoryFixture, fsync: String = "always",
                     extra: [String] = []) throws -> [String] {
    let daemon = try DaemonProcess(["--replay", tracePath(trace), "--wait-clients", "1", "--exit-after-replay",
                                    "--journal-fsync", fsync] + extra,
                                   stateDir: state.path)
    let client = try daemon.connect()
    try client.subscribe(["strokes"])
    let lines = try client.readAll()
    guard expectShutdownLine(lines) else { throw TestFailure("no shutdown line: \(lines.suffix(3))") }
    _ = daemon.waitForExit()
    return lines.filter { type($0) == "stroke" }
}

func expectShutdownLine(_ lines: [String]) -> Bool { type(lines.last ?? "") == "shutdown" }

/// Subscribes to strokes with `since` and reads the replayed history: (hello, replayed lines).
func resume(_ client: RawConnection, since: UInt64, channels: [String] = ["strokes"]) throws -> (hello: [String: Any], replayed: [String]) {
    let hello = object(try client.readLine() ?? "")
    try client.subscribe(channels, since: since)
    var line = try client.readLine() ?? ""
    if type(line) == "error" { line = try client.readLine() ?? "" }  // history_gap precedes subscribed
    let count = (object(line)["replaying"] as? NSNumber)?.intValue ?? -1
    var replayed: [String] = []
    while replayed.count < count, let next = try client.readLine() {
        if type(next) == "stroke" { replayed.append(next) }
    }
    return (hello, replayed)
}
