/// Inks as people write them in a config file or on a command line:
/// `TYPE [#RRGGBBAA] [WIDTH]`, e.g. `pencil`, `marker #ffd000ff 6`, `pen #1040c0cc 0.7`. The
/// colour may go without its `#` (in penkitd's config file a `#` starts a comment): a word
/// of 6 or 8 hex digits that is not a valid width is a colour (valid widths are at most 50).
extension Ink {
    public struct SpecError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init(spec: String) throws(SpecError) {
        let words = spec.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first, let type = InkType(rawValue: first) else {
            let known = InkType.allCases.map(\.rawValue).joined(separator: ", ")
            throw SpecError(description: "ink must start with its type (\(known)), not \"\(spec)\"")
        }
        var color = InkColor.black
        var width: Double?
        for word in words.dropFirst() {
            if let w = Double(word), w.isFinite, type.validWidthRange.contains(w) {
                width = w
            } else if word.hasPrefix("#") || ((word.count == 6 || word.count == 8) && word.allSatisfy(\.isHexDigit)) {
                let hex = word.hasPrefix("#") ? word : "#" + word
                guard let parsed = InkColor(hexString: hex.count == 7 ? hex + "ff" : hex) else {
                    throw SpecError(description: "ink colour must be #RRGGBB or #RRGGBBAA, not \"\(word)\"")
                }
                color = parsed
            } else {
                let r = type.validWidthRange
                throw SpecError(description: "\(type.rawValue) width must be a number of mm in \(r.lowerBound)…\(r.upperBound), not \"\(word)\"")
            }
        }
        self.init(type, color: color, width: width)
    }

    /// The spec that reads back as this ink (colour to 8 bits a channel).
    public var spec: String { "\(type.rawValue) \(color.hexString) \(width)" }
}
