/// One change a quirk makes to a device's event codes: enable or disable a code, or (code nil)
/// a whole event type.
package struct QuirkEventCodeChange: Sendable, Hashable {
    package var type: UInt16
    package var code: UInt16?
    package var enable: Bool

    package init(type: UInt16, code: UInt16?, enable: Bool) {
        self.type = type
        self.code = code
        self.enable = enable
    }
}

/// `AttrEventCode`, the event-code quirk of libinput 1.23 and later (it replaced
/// `AttrEventCodeDisable`): `;`-separated entries, each `+` (enable) or `-` (disable) and then a
/// code name (KEY_, BTN_, ABS_, REL_, SW_), a whole type (`EV_ABS`), or a type and a hex code
/// (`EV_KEY:0x14b`). Read as libinput reads it: one bad entry, or more than 32, and libinput
/// refuses the whole line, so nothing of it applies here either.
enum QuirkEventCodes {
    /// The most entries one line may hold, and the most a device collects over all its sections.
    static let maximumEntries = 32

    static func parse(_ value: String) -> [QuirkEventCodeChange]? {
        let entries = KeyFile.list(value)
        guard !entries.isEmpty, entries.count <= maximumEntries else { return nil }
        var changes: [QuirkEventCodeChange] = []
        for entry in entries {
            guard let sign = entry.first, sign == "+" || sign == "-" else { return nil }
            let body = entry.dropFirst()
            if body.hasPrefix("SW_"), isName(body) {
                // Switches: names the code table (ABS_/REL_/KEY_/BTN_/MSC_) does not hold, and that
                // no tablet path reads; valid, so the line stands, but nothing to change here.
                continue
            }
            guard let (type, code) = typeAndCode(body) else { return nil }
            changes.append(QuirkEventCodeChange(type: type, code: code, enable: sign == "+"))
        }
        return changes
    }

    /// A name, a bare `EV_` type, or `EV_TYPE:0xCODE` with the code within the type's range.
    private static func typeAndCode(_ body: Substring) -> (UInt16, UInt16?)? {
        if let colon = body.firstIndex(of: ":") {
            guard let type = EventCodeNames.types[String(body[..<colon])], let maximum = maxima[type] else { return nil }
            var digits = body[body.index(after: colon)...]
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let code = UInt16(digits, radix: 16), code <= maximum else {
                return nil
            }
            return (type, code)
        }
        if body.hasPrefix("EV_") { return EventCodeNames.types[String(body)].map { ($0, nil) } }
        // libinput reads KEY_, BTN_, ABS_ and REL_ names here, not MSC_.
        guard ["KEY_", "BTN_", "ABS_", "REL_"].contains(where: { body.hasPrefix($0) }),
              let (type, code) = EventCodeNames.parse(String(body)), let code else { return nil }
        return (type, code)
    }

    private static func isName(_ s: Substring) -> Bool {
        s.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
    }

    /// Each type's largest code (input-event-codes.h's *_MAX), for the `EV_TYPE:0xCODE` form.
    private static let maxima: [UInt16: UInt16] = [
        0x00: 0x0f, 0x01: 0x2ff, 0x02: 0x0f, 0x03: 0x3f, 0x04: 0x07, 0x05: 0x10, 0x11: 0x0f,
        0x12: 0x07, 0x14: 0x01, 0x15: 0x7f, 0x17: 0x01,
    ]
}
