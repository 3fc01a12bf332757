import Foundation
import PenKit
import Testing

/// Where clients look for penkitd, with real Unix sockets.
struct DaemonDiscoveryTests {
    @Test func looksAtTheVariableThenTheUserSocketThenTheSystemSocket() {
        let paths = DaemonDiscovery.candidates(environment: ["PENKIT_SOCKET": "/tmp/a.sock", "XDG_RUNTIME_DIR": "/run/user/1000"])
        #expect(paths == ["/tmp/a.sock", "/run/user/1000/penkit/penkit.sock", "/run/penkit/penkit.sock"])
        #expect(DaemonDiscovery.candidates(environment: [:]) == ["/run/penkit/penkit.sock"])
        #expect(DaemonDiscovery.candidates(environment: ["PENKIT_SOCKET": "/run/penkit/penkit.sock"]) == ["/run/penkit/penkit.sock"])
    }

    @Test func connectsToTheFirstSocketThatAnswers() throws {
        let runtime = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        try FileManager.default.createDirectory(atPath: runtime + "/penkit", withIntermediateDirectories: true)
        let listener = try listen(at: runtime + "/penkit/penkit.sock")
        defer { close(listener) }
        // $PENKIT_SOCKET names nothing: the user's socket comes next and answers.
        let client = try DaemonDiscovery.connect(environment: ["PENKIT_SOCKET": runtime + "/missing.sock", "XDG_RUNTIME_DIR": runtime])
        client.disconnect()
        let accepted = accept(listener, nil, nil)
        #expect(accepted >= 0)
        if accepted >= 0 { close(accepted) }
    }

    @Test func whenNoneAnswersOneLineNamesEveryPathAndHowToStartTheService() throws {
        let runtime = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        do {
            _ = try DaemonDiscovery.connect(environment: ["PENKIT_SOCKET": runtime + "/missing.sock", "XDG_RUNTIME_DIR": runtime])
            // /run/penkit/penkit.sock may exist on a machine running penkit; then nothing is left to check.
            #expect(FileManager.default.fileExists(atPath: DaemonDiscovery.systemSocketPath))
        } catch let error as DaemonDiscovery.NotFound {
            let text = error.description
            #expect(!text.contains("\n"))
            #expect(text.contains(runtime + "/missing.sock (no socket there)"))
            #expect(text.contains(runtime + "/penkit/penkit.sock (no socket there)"))
            #expect(text.contains("/run/penkit/penkit.sock"))
            #expect(text.contains("systemctl --user start penkit.socket"))
            #expect(!text.contains("Code="))
        }
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-discovery-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 4) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return fd
    }
}
