import Glibc
import Logging
import PenKit

/// `settings` requests (docs/protocol.md, "Settings"): a change to penkitd's settings, kept in the
/// state directory over the config file (`SettingsOverrides`) and applied at once by a reload, as
/// SIGHUP applies an edited config file. Refused to anyone but root, penkitd's own user and the
/// members of `penkit-admin`: settings steer every user's pen.
///
/// Checked under the hub's lock (`check`), written after it (`save`): the file is synced before
/// it is renamed into place, and the input thread publishes under that lock, so a pen stroke
/// never waits on the disk. Meanwhile the client's later requests wait, so that its answers keep
/// their order (`ControlState.settingsPending`).
struct SettingsHandler: Sendable {
    let logger: Logger

    /// A checked request waiting for the socket loop to write it, out of the lock.
    struct Job: Sendable {
        var client: Int
        var fd: Int32
        var uid: UInt32
        var request: SettingsRequest
        var file: String
    }

    /// Keys that decide who reaches penkitd and where it keeps its state: the administrator's, in
    /// penkitd.conf only. A settings editor changes how the pen feels, not who may read it.
    static let fileOnlyKeys: Set<String> = ["socket", "socket-group", "socket-mode", "allow-users", "allow-groups",
                                            "pressure-sources", "state-dir"]

    /// Under the lock: refuses at once what may not or cannot be saved; queues the rest.
    func check(_ request: SettingsRequest, from client: ClientConnection, _ state: inout HubState) {
        guard state.control.policies.settingsEditors.allows(client.peer) else {
            logger.notice("refused a settings change", metadata: ["client": "\(client.id)", "uid": "\(client.peer.uid)"])
            return client.sendControl(ErrorMessage(code: .settingsRefused, message:
                "uid \(client.peer.uid) may not change penkitd's settings: root, penkitd's user and the group \(PeerPolicy.adminGroup) may"))
        }
        guard let file = state.control.config.settingsFile else {
            return client.sendControl(ErrorMessage(code: .settingsRefused, message:
                "penkitd keeps no settings here: a replay keeps them only in a state directory named with --state-dir"))
        }
        // Every change is checked as a line of the file would be, before anything is written.
        for change in request.changes {
            if change.section == nil, Self.fileOnlyKeys.contains(change.key) {
                return client.sendControl(ErrorMessage(code: .settingsRefused, message:
                    "\(change.key) decides who reaches penkitd or where it keeps state: set it in penkitd.conf"))
            }
            guard let value = change.value else { continue }
            do {
                try ConfigFile.check(section: change.section, key: change.key, value: value)
            } catch {
                let place = change.section.map { "[\($0)] " } ?? ""
                return client.sendControl(ErrorMessage(code: .invalidSetting, message: "\(place)\(change.key) = \(value): \(error.message)"))
            }
        }
        state.control.settingsPending.insert(client.id)
        state.control.settingsJobs.append(Job(client: client.id, fd: client.fd, uid: client.peer.uid, request: request, file: file))
    }

    /// What the client is answered once the file is written, or not.
    enum Answer: Sendable {
        case saved(SettingsSavedMessage)
        case refused(ErrorMessage)

        func send(to client: ClientConnection) {
            switch self {
            case .saved(let message): client.sendControl(message)
            case .refused(let message): client.sendControl(message)
            }
        }
    }

    /// Out of the lock, on the socket loop: writes the overrides and asks for the reload that
    /// applies them.
    func save(_ job: Job) -> Answer {
        let request = job.request
        do {
            var overrides = request.reset ? SettingsOverrides() : try SettingsOverrides.load(path: job.file)
            for change in request.changes {
                overrides.set(section: change.section, key: change.key, value: change.value, imported: change.imported)
            }
            if overrides.entries.isEmpty { try SettingsOverrides.remove(path: job.file) } else { try overrides.save(to: job.file) }
            let restart = request.changes.filter { $0.section == nil && ConfigKeys.byName[$0.key]?.applies == .afterRestart }.map(\.key)
            logger.notice("settings changed", metadata: [
                "client": "\(job.client)", "uid": "\(job.uid)", "reset": "\(request.reset)",
                "keys": "\(request.changes.map { ($0.section.map { "[\($0)] " } ?? "") + $0.key }.joined(separator: ", "))"])
            // Applied as an edited config file is: the reload reads the file and the overrides again.
            kill(getpid(), SIGHUP)
            return .saved(SettingsSavedMessage(file: job.file, overrides: overrides.entries.count, afterRestart: restart))
        } catch {
            logger.error("settings not saved", metadata: ["file": "\(job.file)", "error": "\(error)"])
            return .refused(ErrorMessage(code: .settingsRefused, message: "penkitd could not save the settings: \(error)"))
        }
    }
}
