import Foundation
import Glibc
import PenKit
import Testing

/// PenKitClient against a socket this test serves itself with the lines a real penkitd sent a
/// client that takes parts (Tests/Fixtures/stroke-parts): the app sees whole strokes, the lines of
/// a client without parts; a part out of order ends the sequence with an error that says so, after
/// the strokes completed before it.
@Suite struct PenKitClientPartsTests {
    private static func fixture(_ name: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Tests/Fixtures/stroke-parts/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    /// Serves `lines` (then `shutdown`) to one client; returns what the app read and how it ended.
    private func serve(_ lines: [String]) async throws -> (received: [String], request: String, error: String?) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-parts-\(UUID().uuidString.prefix(8)).sock").path
        defer { unlink(path) }
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(server, 1) == 0 else { throw CocoaError(.fileWriteUnknown) }
        let client = try PenKitClient(path: path)
        try client.subscribe(.strokes)
        let peer = accept(server, nil, nil)
        defer { close(peer) }
        var request = [UInt8](repeating: 0, count: 4096)
        let n = recv(peer, &request, request.count, 0)
        let body = Array((lines + [#"{"type":"shutdown","reason":"done"}"#]).map { $0 + "\n" }.joined().utf8)
        var sent = 0
        while sent < body.count {
            let m = body[sent...].withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard m > 0 else { break }
            sent += m
        }
        shutdown(peer, Int32(SHUT_WR))
        var received: [String] = []
        do {
            for try await line in client.lines { received.append(line.text) }
            return (received, String(decoding: request[..<max(n, 0)], as: UTF8.self), nil)
        } catch {
            return (received, String(decoding: request[..<max(n, 0)], as: UTF8.self), "\(error)")
        }
    }

    @Test func theAppGetsWholeStrokesFromParts() async throws {
        let result = try await serve(try Self.fixture("parts.jsonl"))
        #expect(result.request.contains(#""strokeParts":true"#))
        #expect(result.error == nil)
        #expect(result.received.filter { $0.hasPrefix(#"{"type":"stroke""#) } == (try Self.fixture("whole.jsonl")))
        #expect(!result.received.contains { $0.hasPrefix(#"{"type":"strokePart""#) })
    }

    @Test func aPartOutOfOrderEndsTheSequenceWithAnErrorAfterTheStrokesBeforeIt() async throws {
        var parts = try Self.fixture("parts.jsonl")
        let closings = parts.indices.filter { parts[$0].contains(#""parts":"#) }
        // The second stroke in parts has a part swapped: the first arrives whole, then the error.
        let second = try #require(parts.indices.first { $0 > closings[0] && parts[$0].hasPrefix(#"{"type":"strokePart""#) })
        parts.swapAt(second + 1, second + 2)
        let result = try await serve(parts)
        let whole = try Self.fixture("whole.jsonl")
        let delivered = result.received.filter { $0.hasPrefix(#"{"type":"stroke""#) }
        #expect(!delivered.isEmpty && delivered == Array(whole.prefix(delivered.count)))
        #expect(result.error?.contains("cannot be put together") == true)
        #expect(result.error?.contains("was due") == true)
    }
}
