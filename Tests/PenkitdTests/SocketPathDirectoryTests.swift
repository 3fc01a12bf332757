@testable import penkitd
import Testing

/// `SocketPath.directory(of:)` gives what NSString's deletingLastPathComponent gave before penkitd
/// dropped Foundation: the socket's directory is created from it.
@Suite struct SocketPathDirectoryTests {
    @Test(arguments: [
        ("/run/penkit/penkit.sock", "/run/penkit"),
        ("/penkit.sock", "/"),
        ("penkit.sock", ""),
        ("run//penkit.sock", "run"),
        ("/run/penkit/", "/run"),
        ("/", "/"),
    ])
    func directory(path: String, expected: String) {
        #expect(SocketPath.directory(of: path) == expected)
    }
}
