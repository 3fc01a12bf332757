import Foundation
import Testing

/// Issue #44, item 2: `--state-dir .` logged "state directory ./journal is not a directory" and
/// turned the journal off (the directory was made from the root). Relative paths are the working
/// directory's; a state directory that is there but unusable stops penkitd at start.
@Suite(.serialized)
struct StateDirectoryPathTests {
    static let trace = "wacom-intuos4-6x9-stylus-tap.evemu"

    /// penkitd replays the trace to its end, started in `directory`.
    static func replay(in directory: String, _ arguments: [String]) throws -> (Int32, String) {
        try run(penkitdPath, arguments + ["--socket", directory + "/penkit.sock", "--replay", tracePath(trace), "--exit-after-replay"],
                in: directory)
    }

    @Test func aRelativeStateDirectoryIsTheWorkingDirectorys() throws {
        let work = try StateDirectoryFixture()
        let (status, output) = try Self.replay(in: work.path, ["--config", "/dev/null", "--log-level", "debug", "--state-dir", "."])
        #expect(status == 0, "\(output)")
        #expect(!output.contains("journal unavailable"), "\(output)")
        #expect(!(try work.segments()).isEmpty, "the journal is in the working directory: \(output)")
    }

    @Test func aRelativeConfigFileAndStateDirectory() throws {
        let work = try StateDirectoryFixture()
        // A replay journals only into a state directory named on its command line: the flag's
        // value goes through the same reading as the file's.
        try "history-strokes = 64\n".write(toFile: work.path + "/my.conf", atomically: true, encoding: .utf8)
        let (status, output) = try Self.replay(in: work.path, ["--config", "my.conf", "--state-dir", "kept/state"])
        #expect(status == 0, "\(output)")
        let journal = work.path + "/kept/state/journal"
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: journal)).filter { $0.hasSuffix(".pkj") }.isEmpty, "\(output)")
    }

    @Test func aStateDirectoryThatIsAFileStopsPenkitdAtStart() throws {
        let work = try StateDirectoryFixture()
        try "not a directory\n".write(toFile: work.path + "/state", atomically: true, encoding: .utf8)
        let (status, output) = try Self.replay(in: work.path, ["--config", "/dev/null", "--state-dir", "state"])
        #expect(status != 0, "\(output)")
        #expect(output.contains(work.path + "/state") && output.contains("not a directory"), "\(output)")
    }
}
