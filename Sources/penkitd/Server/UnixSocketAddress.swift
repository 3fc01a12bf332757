import Glibc

/// A `sockaddr_un` holding a socket path's bytes (a leading NUL byte: the abstract namespace).
struct UnixSocketAddress {
    private var address = sockaddr_un()
    /// The family and the path's bytes: the length an abstract address must be given exactly.
    let exactLength: socklen_t
    /// The whole structure: a filesystem path ends at the NUL the zeroed rest supplies.
    static let fullLength = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// nil when the path does not fit (with room left for the terminating NUL).
    init?(path bytes: [UInt8]) {
        address.sun_family = sa_family_t(AF_UNIX)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        exactLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    init?(path: String) { self.init(path: Array(path.utf8)) }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: address) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
