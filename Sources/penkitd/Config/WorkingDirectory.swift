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
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(cString: buffer)
    }
}
