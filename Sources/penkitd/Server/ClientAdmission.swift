import CLinuxCalls
import Glibc
import Logging
import PenKit

/// Who gets in: a new connection's peer is checked against `allow-users`/`allow-groups` and
/// `max-clients`, then watched and greeted with `hello`; anyone else gets one fatal error line.
struct ClientAdmission: Sendable {
    let epoll: Epoll
    let logger: Logger

    /// The connection as a client of the hub, or nil when it was refused (and closed).
    func admit(_ fd: Int32, _ state: inout HubState) -> ClientConnection? {
        guard let peer = PeerCredentials(socket: fd) else {
            refuse(fd, code: .refused, reason: "cannot read peer credentials")
            return nil
        }
        let control = state.control
        guard control.policies.peers.allows(peer) else {
            logger.warning("refused peer", metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "gid": "\(peer.gid)"])
            refuse(fd, code: .refused, reason: "uid \(peer.uid) is not allowed to use penkitd")
            return nil
        }
        guard !control.stopping else {
            Glibc.close(fd)
            return nil
        }
        guard state.fanOut.clients.count < control.maxClients else {
            logger.warning("too many clients; closing a new connection",
                           metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "max-clients": "\(control.maxClients)"])
            refuse(fd, code: .tooManyClients, reason: "penkitd already serves \(control.maxClients) clients (max-clients)")
            return nil
        }
        do {
            try epoll.add(fd, events: Epoll.input)
        } catch {
            logger.error("cannot watch a client", metadata: ["error": "\(error)"])
            Glibc.close(fd)
            return nil
        }
        let client = ClientConnection(id: control.nextClientID, fd: fd, peer: peer, epoll: epoll, limits: control.limits,
                                      logger: logger)
        state.control.nextClientID += 1
        state.fanOut.clients[fd] = client
        let history = state.fanOut.history
        client.sendControl(HelloMessage(devices: state.fanOut.devicesByID, settings: control.settings,
                                        lastSeq: history.lastSeq, oldestSeq: history.oldestSeq))
        logger.info("client connected", metadata: ["client": "\(client.id)", "pid": "\(peer.pid)", "uid": "\(peer.uid)"])
        return client
    }

    /// A connection that is not served: one fatal error line (if the socket takes it), then closed.
    private func refuse(_ fd: Int32, code: ErrorMessage.Code, reason: String) {
        var line = ErrorMessage(code: code, message: reason, fatal: true).jsonBytes()
        line.append(UInt8(ascii: "\n"))
        _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        Glibc.close(fd)
    }
}

extension PeerCredentials {
    /// The connecting process, as the kernel recorded it at connect(2) (SO_PEERCRED).
    init?(socket fd: Int32) {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard penkit_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        self.init(pid: pid, uid: uid, gid: gid)
    }
}
