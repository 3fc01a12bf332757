import Foundation
import PenKit

/// penkitd's settings in force as its `status` answer gives them, each with its scope: the
/// daemon, a tablet (`device N`) or a tool on it (`device N tool TYPE`).
struct SettingsSnapshot: Sendable {
    struct Row: Sendable, Codable, Equatable {
        /// "daemon", "device 1", "device 1 tool pen" (with ` serial 0x…` for a tool with a serial).
        var scope: String
        var key: String
        var value: String
        var origin: String
    }

    var configFile: String?
    var devices: [StatusMessage.Device]
    var rows: [Row]

    init(status: StatusMessage) {
        configFile = status.configFile
        devices = status.devices
        var rows = status.settings.map { Row(scope: "daemon", key: $0.key, value: $0.value, origin: $0.origin) }
        for device in status.devices {
            rows += device.settings.map { Row(scope: "device \(device.device)", key: $0.key, value: $0.value, origin: $0.origin) }
            for tool in device.tools {
                let scope = "device \(device.device) tool \(tool.type.rawValue)" + (tool.serial != 0 ? " serial 0x" + String(tool.serial, radix: 16) : "")
                rows += tool.settings.map { Row(scope: scope, key: $0.key, value: $0.value, origin: $0.origin) }
            }
        }
        self.rows = rows
    }

    /// Asks penkitd for its `status` on `client` (after its hello).
    static func fetch(_ client: PenKitClient) async throws -> SettingsSnapshot {
        try client.send(StatusRequest().jsonLine())
        for try await message in client.messages {
            switch message {
            case .status(let status): return SettingsSnapshot(status: status)
            case .error(let code, let text, _): throw ServerError(code: code, message: text)
            default: continue
            }
        }
        throw ServerError(code: "closed", message: "penkitd closed the connection before answering status")
    }
}
