import Foundation
import Testing

/// penkitd's life under a service manager: readiness and watchdog notifications,
/// socket activation, configuration reload.
@Suite(.serialized)
struct DaemonLifeTests {
    @Test func notifiesReadyAndPingsTheWatchdog() throws {
        let listener = try DatagramListener()
        let daemon = try DaemonProcess([], environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"])
        let first = try listener.receive(timeout: 20)
        #expect(first.hasPrefix("READY=1"))
        var watchdog = false
        for _ in 0..<10 where !watchdog {
            watchdog = try listener.receive(timeout: 5) == "WATCHDOG=1"
        }
        #expect(watchdog)
        #expect(daemon.stop() == 0)
    }

    @Test func sighupTellsSystemdItIsReloading() throws {
        let listener = try DatagramListener()
        let daemon = try DaemonProcess([], environment: ["NOTIFY_SOCKET": listener.path])
        #expect(try listener.receive(timeout: 20).hasPrefix("READY=1"))
        daemon.signal(SIGHUP)
        let reloading = try listener.receive(timeout: 20)
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="), "\(reloading)")
        #expect(try listener.receive(timeout: 20) == "READY=1")
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")))
    func servesASocketActivatedDescriptor() throws {
        let daemon = try DaemonProcess([], launcher: { ["/usr/bin/systemd-socket-activate", "--listen=\($0)"] })
        // systemd-socket-activate execs penkitd on the first connection, with the socket as fd 3.
        let client = try daemon.connect()
        let hello = try client.readLine() ?? ""
        #expect(type(hello) == "hello")
        // penkitd logs this after the bind returns; the hello may have been sent before.
        try waitFor { daemon.log.contains("socket-activated") }
        #expect(daemon.stop() == 0)
    }

    @Test func sighupReloadsAValidConfigAndKeepsTheOldOneOtherwise() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "history-strokes = 10\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess([], config: config)
        try "history-strokes = -3\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reload failed") }
        #expect(daemon.log.contains("\(config):1"))
        try "history-strokes = 20\nallow-groups = nogroup\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reloaded") }
        // Still serving after both reloads.
        let client = try daemon.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        #expect(daemon.stop() == 0)
    }

    @Test func aBadConfigFileStopsStartupWithFileAndLine() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "# comment\nsocket-mode = 0660\ncolour = blue\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try run([penkitdPath, "--config", config, "--socket", "/nonexistent/penkit.sock"])
        #expect(result.status != 0)
        #expect(result.output.contains("\(config):3: unknown key \"colour\""))
    }
}

func waitFor(timeout: Double = 60, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { throw TestFailure("condition not met within \(timeout) s") }
        usleep(20_000)
    }
}

/// A datagram socket standing in for systemd's $NOTIFY_SOCKET.
final class DatagramListener {
    let path: String
    let fd: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { throw TestFailure("bind \(path)") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    func receive(timeout: Double) throws -> String {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { throw TestFailure("no notification within \(timeout) s") }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return String(decoding: buffer[..<max(n, 0)], as: UTF8.self)
    }
}
