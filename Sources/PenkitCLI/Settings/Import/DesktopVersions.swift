import Foundation

/// The compositors' versions as dpkg knows them, to choose the curve formula their source has.
enum DesktopVersions {
    /// mutter's, from its common files' package (every mutter release has one).
    static func mutter() -> String? { packageVersion("mutter-common") ?? packageVersion("mutter") }

    /// KWin's (Plasma 5 and 6 both ship kwin-common).
    static func kwin() -> String? { packageVersion("kwin-common") ?? packageVersion("kwin-wayland") }

    /// The version without Debian's epoch ("4:6.3.4-1" → "6.3.4-1"); nil where there is no dpkg or package.
    static func packageVersion(_ package: String) -> String? {
        let query = "/usr/bin/dpkg-query"
        guard FileManager.default.isExecutableFile(atPath: query) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: query)
        process.arguments = ["-W", "-f", "${Version}", package]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var version = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !version.isEmpty else { return nil }
        if let colon = version.firstIndex(of: ":") { version = String(version[version.index(after: colon)...]) }
        return version
    }
}
