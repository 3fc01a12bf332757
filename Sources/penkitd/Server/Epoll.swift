import CLinuxCalls
import Glibc

/// An epoll instance watching descriptors for the socket loop. epoll_ctl is
/// thread-safe, so the input thread may ask for EPOLLOUT on a client it could
/// not write to while the loop thread waits.
struct Epoll: Sendable {
    let fd: Int32

    init() throws {
        fd = penkit_epoll_create()
        guard fd >= 0 else { throw DaemonError("epoll_create1: \(String(cString: strerror(errno)))") }
    }

    func add(_ descriptor: Int32, events: UInt32) throws {
        guard penkit_epoll_control(fd, EPOLL_CTL_ADD, descriptor, events) == 0 else {
            throw DaemonError("epoll_ctl: \(String(cString: strerror(errno)))")
        }
    }

    func modify(_ descriptor: Int32, events: UInt32) {
        _ = penkit_epoll_control(fd, EPOLL_CTL_MOD, descriptor, events)
    }

    func remove(_ descriptor: Int32) {
        _ = penkit_epoll_control(fd, EPOLL_CTL_DEL, descriptor, 0)
    }

    /// Waits for events; -1 with errno set on failure.
    func wait(into events: inout [penkit_socket_event], timeoutMilliseconds: Int32) -> Int {
        Int(events.withUnsafeMutableBufferPointer { penkit_epoll_wait(fd, $0.baseAddress, Int32($0.count), timeoutMilliseconds) })
    }

    static let input = penkit_epoll_in
    static let output = penkit_epoll_out
    static let hangup = penkit_epoll_hangup
}
