import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PenVirtualTablet

/// The private quirks directory penkitd's libinput reads while the virtual tablet is on: the
/// system's quirks, the local override, and one more file that turns libinput's smoothing off for
/// tablets. The virtual tablet must carry the real pen, not a mean of its last four reports; the
/// compositor's libinput, and every other reader, keeps the system's quirks.
///
/// libinput reads LIBINPUT_QUIRKS_DIR instead of its data directory when it is set, and then
/// skips the local override file, so the override is copied in, sorted after the system's files
/// as libinput would read it.
enum RawTabletQuirks {
    static let systemDirectory = "/usr/share/libinput"
    static let localOverride = "/etc/libinput/local-overrides.quirks"

    /// Makes the directory: under systemd's `$RUNTIME_DIRECTORY`, else a new private directory in
    /// /tmp. nil (and a logged warning) when it cannot: libinput then reads the system's quirks,
    /// and the virtual tablet carries libinput's smoothed positions.
    static func directory(logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        do {
            let directory = try makeDirectory(environment: environment)
            let files = FileManager.default
            for name in try files.contentsOfDirectory(atPath: systemDirectory).sorted() where name.hasSuffix(".quirks") {
                try copy(from: "\(systemDirectory)/\(name)", to: "\(directory)/\(name)")
            }
            if files.fileExists(atPath: localOverride) {
                try copy(from: localOverride, to: "\(directory)/98-local-overrides.quirks")
            }
            try Data(VirtualTabletQuirk.rawInputContents.utf8).write(
                to: URL(fileURLWithPath: "\(directory)/\(VirtualTabletQuirk.rawInputFileName)"))
            return directory
        } catch {
            logger.warning("cannot make penkitd's quirks directory; tablets are read with libinput's smoothing",
                           metadata: ["error": "\(error)"])
            return nil
        }
    }

    private static func makeDirectory(environment: [String: String]) throws -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            let directory = "\(runtime)/libinput-quirks"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            return directory
        }
        // mkdtemp: a new directory only this user can write, never one someone prepared.
        var template = Array("/tmp/penkitd-quirks-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw DaemonError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    private static func copy(from source: String, to destination: String) throws {
        let contents = try Data(contentsOf: URL(fileURLWithPath: source))
        try contents.write(to: URL(fileURLWithPath: destination))
    }
}
