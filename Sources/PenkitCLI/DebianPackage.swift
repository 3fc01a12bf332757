import Foundation

/// What dpkg says of an installed Debian package (dpkg's own database is dpkg's to read).
enum DebianPackage {
    /// The installed version, as dpkg-query reports it (with its epoch); nil where there is no
    /// dpkg or no such package.
    static func version(_ package: String) -> String? {
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
        let version = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !version.isEmpty ? version : nil
    }
}
