/// The top of systemd/penkitd.conf, made from `ConfigKeys`: what the file says, and which keys a
/// reload applies, cannot drift from what penkitd does (ConfigKeyTableTests compares the file).
enum ConfigSample {
    static var text: String {
        let restart = ConfigKeys.all.filter { $0.applies == .afterRestart }.map { "`\($0.name)`" }
        var lines = [
            "# penkitd configuration: `key = value`, `#` comments. Every key is optional;",
            "# the values shown are the defaults. Flags given to penkitd override this file.",
            "# SIGHUP (systemctl reload penkit) re-reads it and applies every key except these,",
            "# which take a restart (penkitd logs a warning when one of them changed):",
        ]
        lines += wrapped(restart.joined(separator: ", ") + ".", width: 98).map { "# " + $0 }
        lines.append("# An invalid file is logged and the old settings stay.")
        for key in ConfigKeys.all {
            if !key.doc.isEmpty {
                lines.append("")
                lines += key.doc.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }
            }
            lines.append(key.defaultValue.isEmpty ? "#\(key.name) =" : "#\(key.name) = \(key.defaultValue)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// docs/daemon.md's table of the top-level keys, made from `ConfigKeys` the same way
    /// (ConfigKeyTableTests checks the region between its markers; `make generated` rewrites it).
    static var docsTable: String {
        var lines = ["| key | default | values | a reload | what it is |", "|---|---|---|---|---|"]
        var previous = ""
        for key in ConfigKeys.all {
            let doc = key.doc.isEmpty ? "as `\(previous)` above" : key.doc.split(separator: "\n").joined(separator: " ")
            if !key.doc.isEmpty { previous = key.name }
            let value = key.defaultValue.isEmpty ? "(none)" : "`\(key.defaultValue)`"
            let applies = key.applies == .onReload ? "applies it" : "restart"
            lines.append("| `\(key.name)` | \(value) | \(key.values) | \(applies) | \(doc.replacingPipes) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words joined into lines of at most `width` characters.
    private static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

private extension String {
    /// A table cell's text: a `|` would end the cell.
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
