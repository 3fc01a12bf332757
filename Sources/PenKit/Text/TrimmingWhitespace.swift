extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode space separators and U+0009): what
    /// `trimmingCharacters(in: .whitespaces)` gave, which FoundationEssentials has not for every
    /// string type. The config, key and /proc files penkitd reads use it.
    package func trimmingWhitespace() -> String {
        func isBlank(_ c: Character) -> Bool {
            c.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
