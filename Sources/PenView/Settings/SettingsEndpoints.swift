import NIOHTTP1
import PenKit

/// What the settings page asks of penkitd, with the credentials of the user who runs `penkit
/// view`: its status (every setting in force, with its origin) and a change. `penkit view` with
/// penkitd behind it passes one; a replay has no penkitd, and the page says so.
package protocol ViewSettingsLink: Sendable {
    /// penkitd's answer to `status`, as the line it sent.
    func status() async throws -> String
    /// penkitd's answer to `request`: a `settings-saved` or an `error` line, as it sent it.
    func change(_ request: SettingsRequest) async throws -> String
}

/// The settings page's endpoints (POST, so the same token, Host and Origin rules as a drawing
/// request hold): `/settings/state` answers with penkitd's status, `/settings/change` takes a
/// `settings` request (the protocol's own JSON) and answers with penkitd's reply. A body that is
/// not a settings request is a 400 and never reaches penkitd.
enum SettingsEndpoints {
    static let paths: Set<Substring> = ["/settings/state", "/settings/change"]
    /// A settings request is one short line; the bound keeps a bad page from holding memory.
    static let maximumBodyBytes = 64 << 10

    static func handles(_ path: Substring) -> Bool { paths.contains(path) }

    static func respond(uri: String, body: [UInt8], link: (any ViewSettingsLink)?) async -> ViewResponse {
        guard let link else {
            return .refused(.serviceUnavailable, "settings are penkitd's: run penkit view with penkitd running, not --replay")
        }
        do {
            switch ViewAccess.path(of: uri) {
            case "/settings/state":
                return json(.ok, try await link.status())
            case "/settings/change":
                guard body.count <= maximumBodyBytes else { return .refused(.payloadTooLarge, "a settings request is one short line") }
                let request: SettingsRequest
                switch SettingsRequest.parse(body) {
                case .success(let parsed): request = parsed
                case .failure(let error): return json(.badRequest, error.jsonLine())
                }
                let answer = try await link.change(request)
                if answer.hasPrefix("{\"type\":\"settings-saved\"") { return json(.ok, answer) }
                return json(answer.contains("\"settings_refused\"") ? .forbidden : .badRequest, answer)
            default:
                return .refused(.notFound, "no settings endpoint \(ViewAccess.path(of: uri))")
            }
        } catch {
            return .refused(.badGateway, "penkitd did not answer: \(error)")
        }
    }

    private static func json(_ status: HTTPResponseStatus, _ line: String) -> ViewResponse {
        ViewResponse(status: status, contentType: "application/json", body: line, close: false)
    }
}
