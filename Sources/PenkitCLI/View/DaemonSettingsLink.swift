import Foundation
import PenKit
import PenView

/// The settings page's way to penkitd: one short connection per question, as the user who runs
/// `penkit view` (so penkitd decides by that user's credentials who may change what).
struct DaemonSettingsLink: ViewSettingsLink {
    let socketPath: String
    /// penkitd answers at once; a wedged one must not hold the page's request forever.
    static let timeout: Duration = .seconds(10)

    func status() async throws -> String {
        // Encoded by JSONEncoder: its keys come in no set order, so the line is decoded to be known.
        try await ask(StatusRequest().jsonLine()) { if case .status? = PenMessage(line: $0) { true } else { false } }
    }

    func change(_ request: SettingsRequest) async throws -> String {
        try await ask(request.jsonLine()) { if case .settingsSaved? = PenMessage(line: $0) { true } else { false } }
    }

    /// Sends `line` after the hello and returns the first answer `isAnswer` takes, or an error line.
    private func ask(_ line: String, isAnswer: @escaping @Sendable (String) -> Bool) async throws -> String {
        let client = try PenKitClient(path: socketPath)
        defer { client.disconnect() }
        try client.send(line)
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                for try await received in client.lines {
                    if isAnswer(received.text) { return received.text }
                    if case .error? = PenMessage(line: received.text) { return received.text }
                }
                throw PenKitClient.Error(description: "penkitd closed the connection without answering")
            }
            group.addTask {
                try await Task.sleep(for: Self.timeout)
                throw PenKitClient.Error(description: "penkitd did not answer within \(Self.timeout)")
            }
            let answer = try await group.next()!
            group.cancelAll()
            client.disconnect()
            return answer
        }
    }
}
