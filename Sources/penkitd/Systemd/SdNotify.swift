import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// sd_notify(3) without libsystemd: one datagram to $NOTIFY_SOCKET.
enum SdNotify {
    @discardableResult
    static func send(_ state: String) -> Bool {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        guard let address = UnixSocketAddress(path: bytes) else { return false }
        let sent = state.withCString { text in
            address.withSockaddr { sendto(fd, text, strlen(text), 0, $0, address.exactLength) }
        }
        return sent >= 0
    }

    /// Half the watchdog interval systemd asks for, or nil when there is no watchdog.
    static func watchdogInterval() -> Duration? {
        let env = ProcessInfo.processInfo.environment
        guard let usec = env["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 else { return nil }
        if let pid = env["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        return .microseconds(Int64(usec / 2))
    }
}
