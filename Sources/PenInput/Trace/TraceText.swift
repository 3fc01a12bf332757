#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Checks that a trace is text before any format parser sees it, so binary garbage gets one
/// clear error naming its line instead of a confusing complaint from deep inside a parser.
package enum TraceText {
    /// No real evemu or `libinput record` line comes near this (the longest, a keyboard's code
    /// list, is a few KiB); a longer one is garbage or an attack on the parser.
    static let maximumLineLength = 64 * 1024

    /// Rejects NUL and other control bytes (tab, CR and LF excepted), invalid UTF-8 and overlong lines.
    package static func validate(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws {
        // Clean text is the common case: memchr and the standard library's UTF-8 validation check
        // it at memory speed even in debug builds. Only a fault needs the byte loop, to find its line.
        if isClean(bytes) { return }
        try locateFault(bytes, file: file)
    }

    private static let forbiddenControlBytes: [Int32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F)

    private static func isClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        for byte in forbiddenControlBytes where memchr(base, byte, bytes.count) != nil { return false }
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        var start = 0
        while start < bytes.count {
            let end = lineEnd(base, from: start, count: bytes.count)
            if end - start > maximumLineLength { return false }
            start = end + 1
        }
        return true
    }

    /// The index of the next LF at or after `start`, or `count` when the last line has none.
    package static func lineEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        guard let found = memchr(base + start, 0x0A, count - start) else { return count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    private static func locateFault(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws {
        var line = 1
        var lineStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x0A {
                    line += 1
                    lineStart = i + 1
                } else if b < 0x20 && b != 0x09 && b != 0x0D {
                    let what = b == 0 ? "a NUL byte" : "control byte " + hexByte(b)
                    throw TraceError(file: file, line: line, message: "binary data (\(what) at byte \(i - lineStart + 1) of the line): not a text trace")
                }
                i += 1
            } else {
                let length = utf8SequenceLength(bytes, at: i)
                if length == 0 {
                    throw TraceError(file: file, line: line, message: "invalid UTF-8 (byte \(hexByte(b)) at byte \(i - lineStart + 1) of the line): not a text trace")
                }
                i += length
            }
            if i - lineStart > maximumLineLength {
                throw TraceError(file: file, line: line, message: "line longer than \(maximumLineLength) bytes: not a trace line")
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `i`, or 0 when it is malformed
    /// (overlong forms, surrogates and code points above U+10FFFF included, per RFC 3629).
    private static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = bytes[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        let second = bytes[i + 1]
        guard second >= low && second <= high else { return 0 }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    static func hexByte(_ b: UInt8) -> String {
        let digits = String(b, radix: 16)
        return "0x" + (digits.count < 2 ? "0" : "") + digits
    }
}
