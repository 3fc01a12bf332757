import PenInput

/// Bounds how deeply a YAML document nests before Yams sees it: Yams builds its node tree
/// recursively, so a file of a million `[` would overflow the stack. A `libinput record` file
/// nests five levels deep; the limits leave generous room above that.
enum YamlNestingGuard {
    static let maximumFlowDepth = 64
    static let maximumBlockDepth = 256

    static func check(_ buffer: UnsafeBufferPointer<UInt8>, file: String) throws {
        // A raw pointer: its subscript is inlined even in debug builds; indices stay below `count`.
        guard let bytes = buffer.baseAddress else { return }
        let count = buffer.count
        var line = 1
        var flowDepth = 0
        var quote: UInt8 = 0  // the open quote character, 0 outside quoted scalars
        var atLineStart = true
        var blockDepth = 0
        var previous: UInt8 = 0x0A
        var i = 0
        while i < count {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                atLineStart = true
                blockDepth = 0
                previous = b
                i += 1
                continue
            }
            if quote != 0 {
                if b == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                    i += 2
                    continue
                }
                if b == quote {
                    if quote == UInt8(ascii: "'") && i + 1 < count && bytes[i + 1] == quote {
                        i += 2  // '' is an escaped quote inside a single-quoted scalar
                        continue
                    }
                    quote = 0
                }
                previous = b
                i += 1
                continue
            }
            // Indentation and `- ` / `? ` indicators before the first content of a line each open a block level.
            if atLineStart {
                if b == 0x20 {
                    blockDepth += 1
                } else if (b == UInt8(ascii: "-") || b == UInt8(ascii: "?"))
                            && (i + 1 == count || bytes[i + 1] == 0x20 || bytes[i + 1] == 0x0A) {
                    blockDepth += 2
                } else {
                    atLineStart = false
                }
                if blockDepth > maximumBlockDepth {
                    throw TraceError(file: file, line: line, message: "YAML nested more than \(maximumBlockDepth) levels deep: not a libinput record file")
                }
            }
            let startsToken = previous == 0x20 || previous == 0x09 || previous == 0x0A || previous == UInt8(ascii: "[")
                || previous == UInt8(ascii: "{") || previous == UInt8(ascii: ",") || previous == UInt8(ascii: ":")
            switch b {
            case UInt8(ascii: "#") where previous == 0x20 || previous == 0x09 || previous == 0x0A:
                while i < count && bytes[i] != 0x0A { i += 1 }
                continue
            case UInt8(ascii: "'") where startsToken, UInt8(ascii: "\"") where startsToken:
                quote = b
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                flowDepth += 1
                if flowDepth > maximumFlowDepth {
                    throw TraceError(file: file, line: line, message: "YAML nested more than \(maximumFlowDepth) brackets deep: not a libinput record file")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                flowDepth = max(0, flowDepth - 1)
            default:
                break
            }
            previous = b
            i += 1
        }
    }
}
