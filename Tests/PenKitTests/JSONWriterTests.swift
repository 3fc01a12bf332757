import PenTestSupport
import Testing
@testable import PenKit

@Suite struct JSONWriterTests {
    private func written(_ value: Double) -> String {
        var w = JSONWriter()
        w.number(value)
        return w.text
    }

    @Test func doublesPrintExactlyAsSwiftsDescription() {
        var g = SeededGenerator(seed: 10)
        var checked = 0
        while checked < 200_000 {
            // Every bit pattern: all exponents, subnormals, long and short digit strings.
            let value = Double(bitPattern: g.next())
            guard value.isFinite else { continue }
            #expect(written(value) == value.description)
            checked += 1
        }
        let edges: [Double] = [0, -0.0, 1, -1, 0.1, 0.30000000000000004, 1e16, 1e-5, 123456789012345680,
                               .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                               -.greatestFiniteMagnitude, 5e-324, 2.5, 1.0 / 3, 4.35, 1e22, 1e23]
        for value in edges { #expect(written(value) == value.description) }
    }

    /// The writer's short path (at most four decimals, below 10⁹) against `description`, with the
    /// values around its edges: a fifth decimal, 10⁹, halves of the last digit, negative zero.
    @Test func shortDecimalsPrintExactlyAsSwiftsDescription() {
        var g = SeededGenerator(seed: 11)
        for _ in 0..<200_000 {
            let bits = g.next()
            let decimals = Int(bits % 7)                  // 0...6: the short path takes up to 4
            let scale = [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][decimals]
            let magnitude = Double((bits >> 3) % 20_000_000_000_000) // up to 2·10¹³, so past 10⁹ too
            let value = (bits >> 60) & 1 == 0 ? magnitude / scale : -magnitude / scale
            #expect(written(value) == value.description)
            let neighbour = value.nextUp  // one ulp off: never a short decimal, except by chance
            #expect(written(neighbour) == neighbour.description)
        }
        let edges: [Double] = [-0.0, 0.0001, 0.00015, 0.0005, 0.001, 999_999_999.9999, 1e9, -1e9, 1e9 - 0.0001,
                               0.1 + 0.2, 221.29, 16.75, 0.005, 1e-4 / 3, 123_456_789.1234, 0.5714285714285714]
        for value in edges { #expect(written(value) == value.description) }
    }

    @Test func nonFiniteDoublesPrintAsNull() {
        #expect(written(.nan) == "null")
        #expect(written(.infinity) == "null")
        #expect(written(-.infinity) == "null")
    }

    @Test func integersPrintTheirDecimalDigits() {
        var w = JSONWriter()
        w.number(UInt64.max); w.byte(32)
        w.number(Int.min); w.byte(32)
        w.number(Int32(-7)); w.byte(32)
        w.number(UInt16(65535)); w.byte(32)
        w.number(UInt64(0))
        #expect(w.text == "18446744073709551615 -9223372036854775808 -7 65535 0")
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
        var w = JSONWriter()
        w.string("a\"b\\c\nd\re\tf\u{1}g\u{1f}h é ✓")
        #expect(w.text == #""a\"b\\c\nd\re\tf\u0001g\u001fh é ✓""#)
    }

    @Test func keysAreSeparatedByCommasButNotAfterAnOpeningBrace() {
        var w = JSONWriter()
        w.raw("{")
        w.field("a", UInt64(1))
        w.key("b"); w.raw("[")
        w.separateElement(); w.bool(true)
        w.separateElement(); w.bool(false)
        w.raw("]")
        w.field("c", string: "x")
        w.raw("}")
        #expect(w.text == #"{"a":1,"b":[true,false],"c":"x"}"#)
    }

    @Test func aLineEndsWithOneNewlineAndTheBufferIsReusable() {
        var w = JSONWriter()
        w.line(DroppedMessage(frames: 3))
        #expect(w.text == "{\"type\":\"dropped\",\"frames\":3,\"updates\":0,\"buttons\":0}\n")
        w.removeAll()
        w.line(ShutdownMessage(reason: "bye", lastSentSeq: 12))
        #expect(w.text == "{\"type\":\"shutdown\",\"reason\":\"bye\",\"lastSentSeq\":12}\n")
    }
}
