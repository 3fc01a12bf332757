import FoundationEssentials

/// JSONValue for the request fields read by hand (`type`, `channels`, `predict`), in place of
/// JSONSerialization, which FoundationEssentials lacks. Unlike JSONSerialization's NSNumber, a
/// bool is never a number here, nor a number a bool.
extension JSONValue {
    /// One line holding one JSON object; nil when it is not that.
    static func object(line: [UInt8]) -> [String: JSONValue]? {
        try? JSONDecoder().decode([String: JSONValue].self, from: Data(line))
    }

    /// For error messages: a string as itself (a channel's name), anything else as JSON-like text.
    var messageText: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number):
            number.rounded() == number && abs(number) < 0x1p53 ? "\(Int64(number))" : "\(number)"
        case .string(let string): string
        case .array(let items): "[" + items.map(\.messageText).joined(separator: ",") + "]"
        case .object: "{...}"
        }
    }
}
