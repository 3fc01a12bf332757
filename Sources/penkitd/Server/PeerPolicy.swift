import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The credentials the kernel vouches for on a Unix socket (struct ucred, SO_PEERCRED).
struct PeerCredentials: Sendable, Equatable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
}

/// Who may connect: root, penkitd's own user, the listed users, and members of the listed groups.
/// An unknown user or group is an error naming the config line or flag that gave it (`ConfigOrigins`).
struct PeerPolicy: Sendable {
    var users: Set<uid_t>
    var groups: Set<gid_t>

    init(config: DaemonConfig) throws {
        var users: Set<uid_t> = [0, getuid()]
        for name in config.allowUsers {
            guard let uid = Identity.userID(name) else {
                throw DaemonError(config.origins.prefix("allow-users") + "allow-users names the user \"\(name)\", who does not exist on this system")
            }
            users.insert(uid)
        }
        var groups: Set<gid_t> = []
        for name in config.allowGroups {
            guard let gid = Identity.groupID(name) else {
                throw DaemonError(config.origins.prefix("allow-groups") + "allow-groups names the group \"\(name)\", which does not exist on this system")
            }
            groups.insert(gid)
        }
        if let name = config.socketGroup {
            guard let gid = Identity.groupID(name) else {
                throw DaemonError(config.origins.prefix("socket-group") + "the socket group \"\(name)\" does not exist on this system; create it "
                    + "(the penkit package does, with systemd-sysusers) or choose another with --socket-group")
            }
            groups.insert(gid)
        }
        self.users = users
        self.groups = groups
    }

    /// Who may be a pressure source: root, penkitd's own user, and `pressure-sources`.
    static func pressureSources(config: DaemonConfig) throws -> PeerPolicy {
        var policy = defaultPressureSources
        for entry in config.pressureSources {
            if entry.hasPrefix("@") {
                guard let gid = Identity.groupID(String(entry.dropFirst())) else {
                    throw DaemonError(config.origins.prefix("pressure-sources") + "pressure-sources names the group \"\(entry.dropFirst())\", which does not exist on this system")
                }
                policy.groups.insert(gid)
            } else {
                guard let uid = Identity.userID(entry) else {
                    throw DaemonError(config.origins.prefix("pressure-sources") + "pressure-sources names the user \"\(entry)\", who does not exist on this system")
                }
                policy.users.insert(uid)
            }
        }
        return policy
    }

    /// Who may read the flight recorder: root, penkitd's own user, and the socket's group (penkitd's
    /// own group when none is set). Not `allow-users` or `allow-groups`: a recording holds pen
    /// positions, which can be handwriting, so it goes to fewer than the live pen does.
    static func recorders(config: DaemonConfig) throws -> PeerPolicy {
        var groups: Set<gid_t> = [getgid()]
        if let name = config.socketGroup {
            guard let gid = Identity.groupID(name) else {
                throw DaemonError(config.origins.prefix("socket-group") + "the socket group \"\(name)\" does not exist on this system")
            }
            groups = [gid]
        }
        return PeerPolicy(users: [0, getuid()], groups: groups)
    }

    /// The group whose members may change penkitd's settings (the package makes it, sysusers.d).
    static let adminGroup = "penkit-admin"

    /// Who may change settings (`settings` requests): root, penkitd's own user (the owner of a
    /// user service) and the members of `penkit-admin`, looked up now (a group made later counts
    /// from the next reload).
    static func settingsEditors() -> PeerPolicy {
        PeerPolicy(users: [0, getuid()], groups: Identity.groupID(adminGroup).map { [$0] } ?? [])
    }

    /// Root and penkitd's own user: who produces when `pressure-sources` is empty.
    static var defaultPressureSources: PeerPolicy { PeerPolicy(users: [0, getuid()], groups: []) }

    private init(users: Set<uid_t>, groups: Set<gid_t>) {
        self.users = users
        self.groups = groups
    }

    func allows(_ peer: PeerCredentials) -> Bool {
        if users.contains(peer.uid) { return true }
        if groups.isEmpty { return false }
        return !groups.isDisjoint(with: Identity.groups(ofProcess: peer.pid, uid: peer.uid, primary: peer.gid))
    }
}
