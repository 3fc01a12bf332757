import FoundationEssentials
import PenKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The INI-like format of libwacom's data and libinput's quirks files: `[section]` headers,
/// `key=value` lines, `#` comments. Sections keep file order; keys keep their last value.
struct KeyFile {
    struct Section {
        var name: String
        var entries: [(key: String, value: String)] = []
        func value(_ key: String) -> String? { entries.last(where: { $0.key == key })?.value }
    }

    var sections: [Section] = []

    init(text: String) {
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                sections.append(Section(name: String(line.dropFirst().dropLast())))
            } else if let eq = line.firstIndex(of: "="), !sections.isEmpty {
                let key = line[..<eq].trimmingWhitespace()
                let value = line[line.index(after: eq)...].trimmingWhitespace()
                sections[sections.count - 1].entries.append((key, value))
            }
        }
    }

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        self.init(text: text)
    }

    /// `a;b;c;` as ["a", "b", "c"].
    static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// Integers as C's strtol with base 0 reads them: `0x` hex, otherwise decimal.
    static func integer(_ s: String) -> Int? {
        let t = s.lowercased()
        if t.hasPrefix("0x") { return Int(t.dropFirst(2), radix: 16) }
        return Int(t)
    }
}
