import Foundation
import PenKit
import Testing

/// One version: the source's, debian/changelog's, and what `hello` announces.
struct VersionTests {
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    @Test func debianChangelogHasTheSourceVersion() throws {
        let changelog = try String(contentsOfFile: Self.repositoryRoot + "/debian/changelog", encoding: .utf8)
        let first = changelog.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("penkit (\(PenkitVersion.string))"))
    }

    @Test func helloAnnouncesTheServerVersion() throws {
        let line = HelloMessage(devices: [], settings: [:], lastSeq: 0, oldestSeq: 0).jsonLine()
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["serverVersion"] as? String == PenkitVersion.string)
        #expect(object?["version"] as? Int == PenProtocol.version)
    }

    @Test func foundationFileErrorsBecomeOneSentence() {
        do {
            _ = try String(contentsOfFile: "/nonexistent/penkit-test.jsonl", encoding: .utf8)
            Issue.record("reading a missing file succeeded")
        } catch {
            let text = "\(PlainError.replacingFoundationErrors(error))"
            #expect(text == "cannot read /nonexistent/penkit-test.jsonl: No such file or directory")
        }
    }
}
