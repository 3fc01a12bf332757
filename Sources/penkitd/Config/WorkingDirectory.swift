import Glibc

/// Paths a user gives penkitd (`--config`, `state-dir`) are relative to the directory it was
/// started in: made absolute at once, so a log, `status` and a reload all name the same file.
enum WorkingDirectory {
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = current() else { return path }
        let trimmed = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        if trimmed.isEmpty || trimmed == "." { return cwd }
        return cwd == "/" ? "/" + trimmed : cwd + "/" + trimmed
    }

    private static func current() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let found = buffer.withUnsafeMutableBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { getcwd($0.baseAddress, $0.count) != nil }
        }
        guard found, let end = buffer.firstIndex(of: 0) else { return nil }
        return String(decoding: buffer[..<end], as: UTF8.self)
    }
}
