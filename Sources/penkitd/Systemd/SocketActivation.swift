import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// systemd socket activation: the listening socket arrives as fd 3 when
/// LISTEN_PID names this process and LISTEN_FDS ≥ 1 (sd_listen_fds(3)).
enum SocketActivation {
    static let firstDescriptor: CInt = 3

    static func listeningSocket() -> CInt? {
        let env = ProcessInfo.processInfo.environment
        guard let pid = env["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = env["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
        // Children must not think the socket is theirs.
        unsetenv("LISTEN_PID"); unsetenv("LISTEN_FDS"); unsetenv("LISTEN_FDNAMES")
        _ = fcntl(firstDescriptor, F_SETFD, FD_CLOEXEC)
        return firstDescriptor
    }
}
