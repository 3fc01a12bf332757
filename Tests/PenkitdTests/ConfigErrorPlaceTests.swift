import Foundation
@testable import penkitd
import Testing

/// Every config error at start says where: the file and line of the setting at fault, or the
/// flag that made it. Users and groups are looked up after parsing (when the peer policy is
/// built), so their errors must still find their way back to the line.
@Suite struct ConfigErrorPlaceTests {
    private func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString).conf").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// The error building the peer policies gives for a config whose line 3 is `line`.
    private func policyError(line: String) throws -> (path: String, error: String?) {
        try withFile(Array("# penkitd.conf\nhistory-strokes = 10\n\(line)\n".utf8)) { path in
            var config = DaemonConfig()
            try ConfigFile.apply(path: path, required: true, to: &config)
            do {
                _ = try PeerPolicy(config: config)
                _ = try PeerPolicy.pressureSources(config: config)
                return (path, nil)
            } catch {
                return (path, "\(error)")
            }
        }
    }

    @Test(arguments: [
        ("allow-users = root, no-such-user-penkit", "allow-users names the user \"no-such-user-penkit\", who does not exist on this system"),
        ("allow-groups = no-such-group-penkit", "allow-groups names the group \"no-such-group-penkit\", which does not exist on this system"),
        ("socket-group = no-such-group-penkit", "the socket group \"no-such-group-penkit\" does not exist on this system"),
        ("pressure-sources = no-such-user-penkit", "pressure-sources names the user \"no-such-user-penkit\", who does not exist on this system"),
        ("pressure-sources = @no-such-group-penkit", "pressure-sources names the group \"no-such-group-penkit\", which does not exist on this system"),
    ])
    func anUnknownUserOrGroupNamesTheFileAndLine(line: String, message: String) throws {
        let (path, error) = try policyError(line: line)
        #expect(error?.hasPrefix("\(path):3: \(message)") == true, "\(String(describing: error))")
    }

    @Test func anUnknownUserFromAFlagNamesTheFlag() throws {
        let error = try withFile(Array("allow-users = root\n".utf8)) { path -> String? in
            let config = try Penkitd.parse(["--config", path, "--allow-users", "no-such-user-penkit"]).loadConfig()
            do { _ = try PeerPolicy(config: config); return nil } catch { return "\(error)" }
        }
        #expect(error == "--allow-users: allow-users names the user \"no-such-user-penkit\", who does not exist on this system")
    }

    @Test func invalidUTF8NamesItsFirstLine() throws {
        let bytes = Array("# penkitd.conf\nhistory-strokes = 10\n".utf8) + [0x73, 0x3d, 0xff, 0x0a] + Array("log-level = \u{e9}\n".utf8) + [0xc3, 0x0a]
        let error = try withFile(bytes) { path -> (String, ConfigFile.Error?) in
            var config = DaemonConfig()
            do { try ConfigFile.apply(path: path, required: true, to: &config); return (path, nil) } catch let e as ConfigFile.Error { return (path, e) }
        }
        #expect(error.1?.description == "\(error.0):3: this line is not UTF-8 text")
    }

    /// Held before this suite was written (a whole-file error says "config file PATH"); kept so
    /// that it stays so.
    @Test func aFileOverOneMebibyteNamesTheFile() throws {
        let error = try withFile(Array(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)) { path -> (String, ConfigFile.Error?) in
            var config = DaemonConfig()
            do { try ConfigFile.apply(path: path, required: true, to: &config); return (path, nil) } catch let e as ConfigFile.Error { return (path, e) }
        }
        #expect(error.1?.description == "config file \(error.0) cannot be read: it is larger than 1 MiB")
    }
}
