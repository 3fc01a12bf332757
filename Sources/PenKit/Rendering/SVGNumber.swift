/// Decimal text for SVG coordinates without Foundation: a fixed number of
/// decimals, trailing zeros dropped, never "-0", never exponent notation.
enum SVGNumber {
    static func format(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value.rounded())) }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale), fraction = units % UInt64(scale)
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            while digits.count < decimals { digits = "0" + digits }
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
