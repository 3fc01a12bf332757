import Foundation
@testable import penkitd
import Testing

/// The config file parser, on real files: values land in their settings, and every bad line is
/// an error naming the file and line, never ignored and never clamped.
@Suite struct ConfigFileTests {
    private func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString).conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    private func parse(_ text: String) throws -> DaemonConfig {
        var config = DaemonConfig()
        try withFile(text) { try ConfigFile.apply(path: $0, required: true, to: &config) }
        return config
    }

    private func error(_ text: String) throws -> ConfigFile.Error? {
        var config = DaemonConfig()
        var caught: ConfigFile.Error?
        try withFile(text) { path in
            do { try ConfigFile.apply(path: path, required: true, to: &config) } catch let e as ConfigFile.Error { caught = e }
        }
        return caught
    }

    @Test func valuesCommentsAndBlankLinesAreRead() throws {
        let config = try parse("""
            # penkitd.conf
            socket = /run/test.sock   # trailing comment

            socket-mode = 0640
            allow-users = alice, bob ,
            history-strokes = 10
            max-clients = 3
            smoothing = off
            log-level = debug
            journal-fsync-interval-ms = 250
            journal-max-age-days = 2
            """)
        #expect(config.socketPath == "/run/test.sock")
        #expect(config.socketMode == 0o640)
        #expect(config.allowUsers == ["alice", "bob"])
        #expect(config.historyStrokes == 10 && config.maxClients == 3)
        #expect(!config.smoothing && config.logLevel == "debug")
        #expect(config.journal.fsyncIntervalMilliseconds == 250)
        #expect(config.journal.maxAgeSeconds == 2 * 86_400)
    }

    @Test func theUnplugGraceIsASettingWithARange() throws {
        #expect(DaemonConfig().unplugGraceMilliseconds == 500)
        #expect(try parse("unplug-grace-ms = 2000").unplugGraceMilliseconds == 2000)
        #expect(try error("unplug-grace-ms = 0")?.description.hasSuffix(":1: unplug-grace-ms must be a positive integer, not \"0\"") == true)
        #expect(try error("\nunplug-grace-ms = 10001")?.description.hasSuffix(":2: unplug-grace-ms must be from 1 to 10000, not 10001") == true)
    }

    @Test func theWaitForReadingsAfterEndIsASettingWithARange() throws {
        #expect(DaemonConfig().readingsAfterEndMilliseconds == 5_000)
        #expect(try parse("pressure-wait-after-end-ms = 250").readingsAfterEndMilliseconds == 250)
        #expect(try error("pressure-wait-after-end-ms = 10001")?.description.hasSuffix(
            ":1: pressure-wait-after-end-ms must be from 1 to 10000, not 10001") == true)
    }

    @Test func theVirtualTabletIsOffUnlessTurnedOnAndATipThresholdIsAFractionAboveZero() throws {
        #expect(DaemonConfig().virtualTablet == false)
        #expect(try parse("virtual-tablet = on").virtualTablet == true)
        #expect(try error("virtual-tablet = maybe")?.description.hasSuffix(":1: virtual-tablet must be true or false") == true)
        let config = try parse("[tool pen]\ntip-threshold = 0.02\n")
        #expect(config.tabletSettings.feel.byType[.pen]?.tipThreshold == 0.02)
        #expect(try error("[tool pen]\ntip-threshold = 0\n")?.description.contains(":2: tip-threshold must be above 0") == true)
        #expect(try error("[tool pen]\ntip-threshold = 1.5\n") != nil)
    }

    @Test func barrelButtonsAreRemappedPerToolAndASerialOverridesItsType() throws {
        let config = try parse("[tool pen]\nbutton-1 = right\nbutton-2 = none\n[tool serial 0x1234]\nbutton-1 = Eraser\n")
        #expect(config.tabletSettings.feel.byType[.pen]?.buttons == [1: .right, 2: .nothing])
        let pen = config.tabletSettings.feel.byType[.pen]!.overlaid(by: config.tabletSettings.feel.bySerial[0x1234]!)
        #expect(pen.buttons == [1: .eraser, 2: .nothing])
        #expect(try error("[tool pen]\nbutton-1 = explode\n")?.description
            .contains(":2: button-1 must be one of left, middle, right, eraser, none") == true)
        #expect(try error("[tool pen]\nbutton-4 = left\n") != nil)
    }

    @Test func anEmptyFileChangesNothing() throws {
        #expect(try parse("\n# nothing\n\n") == DaemonConfig())
    }

    @Test(arguments: [
        ("max-clients = 0", 1, "max-clients must be a positive integer"),
        ("\n\nhistory-strokes = -4", 3, "history-strokes must be a positive integer"),
        ("socket-mode = 999", 1, "socket-mode must be octal"),
        ("socket-mode = 01777", 1, "socket-mode must be octal"),
        ("smoothing = maybe", 1, "smoothing must be true or false"),
        ("log-level = loud", 1, "log-level must be one of"),
        ("journal-max-age-days = 36501", 1, "journal-max-age-days must be from 1 to 36500, not 36501"),
        ("histroy-strokes = 5", 1, "unknown key \"histroy-strokes\""),
        ("# ok\njust words", 2, "expected key = value"),
    ])
    func aBadLineIsAnErrorNamingItsLine(text: String, line: Int, message: String) throws {
        let error = try #require(try error(text))
        #expect(error.line == line)
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.description.hasSuffix(":\(line): \(error.message)"))
    }

    @Test func aMissingFileIsFineOnlyWhenNotRequired() throws {
        var config = DaemonConfig()
        let path = "/nonexistent-penkit-dir/penkitd.conf"
        try ConfigFile.apply(path: path, required: false, to: &config)
        #expect(config == DaemonConfig())
        #expect(throws: ConfigFile.Error.self) { try ConfigFile.apply(path: path, required: true, to: &config) }
    }

    /// The default file (not `required`) that is there but cannot be read is skipped, and
    /// `apply` says why, for a warning; a file given with --config (`required`) stays fatal.
    /// The tests run as root, who reads a chmod-000 file, so the errors are provoked with a
    /// path under a regular file (ENOTDIR) and with a directory where the file should be.
    @Test func anUnreadableDefaultFileIsSkippedWithTheReasonAndARequiredOneIsFatal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/penkitd.conf", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "history-strokes = 5\n".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
        let cases = [
            (directory + "/file/penkitd.conf", "cannot be read: Not a directory"),
            (directory + "/penkitd.conf", "is not a regular file (a directory): penkitd reads its config only from a file"),
        ]
        for (path, why) in cases {
            var config = DaemonConfig()
            var skipped: ConfigFile.Error?
            #expect(throws: Never.self) { skipped = try ConfigFile.apply(path: path, required: false, to: &config) }
            #expect(skipped?.description == "config file \(path) \(why)")
            #expect(config == DaemonConfig())
            #expect(throws: ConfigFile.Error.self) { try ConfigFile.apply(path: path, required: true, to: &config) }
        }
    }

    /// Skipping is for a file that cannot be read, not for one that is wrong.
    @Test func aBadLineInTheDefaultFileIsStillFatal() throws {
        try withFile("colour = blue\n") { path in
            var config = DaemonConfig()
            #expect(throws: ConfigFile.Error.self) { try ConfigFile.apply(path: path, required: false, to: &config) }
        }
    }

    /// Refused as a whole (nothing of it applied), naming the first line that is not UTF-8.
    @Test func aFileThatIsNotUTF8IsRefusedAsAWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-bad.conf").path
        try Data([0x73, 0x3d, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var config = DaemonConfig()
        do {
            try ConfigFile.apply(path: path, required: true, to: &config)
            Issue.record("a file that is not UTF-8 was accepted")
        } catch let error as ConfigFile.Error {
            #expect(error.line == 1 && error.message == "this line is not UTF-8 text")
        }
    }
}
