import PenEngine
import PenInput
import PenKit

/// `--late-pressure MS[±JITTER]`: pressure moved into a second stream that
/// arrives MS milliseconds after its sample, plus a uniform jitter in
/// [−JITTER, +JITTER] ms drawn from a seeded generator (never before the sample).
package struct LatePressure: Sendable, Hashable {
    package var latency: UInt64
    package var jitter: UInt64
    package var seed: UInt64

    package init(latency: UInt64, jitter: UInt64 = 0, seed: UInt64 = 1) {
        self.latency = latency
        self.jitter = jitter
        self.seed = seed
    }

    /// Parses "20", "20±10", "20+-10" or "2.5±0.5" (milliseconds) into microseconds.
    package init?(parsing text: String, seed: UInt64 = 1) {
        let separators = ["±", "+-"]
        var parts = [Substring(text)]
        for separator in separators where text.contains(separator) {
            parts = text.split(separator: separator, omittingEmptySubsequences: false).map { $0 }
        }
        guard parts.count == 1 || parts.count == 2 else { return nil }
        guard let latency = Self.microseconds(parts[0]) else { return nil }
        var jitter: UInt64 = 0
        if parts.count == 2 {
            guard let j = Self.microseconds(parts[1]) else { return nil }
            jitter = j
        }
        self.init(latency: latency, jitter: jitter, seed: seed)
    }

    private static func microseconds(_ text: Substring) -> UInt64? {
        guard let ms = Double(text.trimmingWhitespace()), ms.isFinite, ms >= 0, ms <= 60_000 else { return nil }
        return UInt64((ms * 1000).rounded())
    }

    /// The delays of successive reports, deterministic for a given seed.
    package struct Delays {
        var generator: SplitMix64
        let latency: UInt64
        let jitter: UInt64

        package mutating func next() -> UInt64 {
            guard jitter > 0 else { return latency }
            let offset = Int64(generator.next() % (2 * jitter + 1)) - Int64(jitter)
            return UInt64(max(Int64(latency) + offset, 0))
        }
    }

    package func delays() -> Delays { Delays(generator: SplitMix64(seed: seed), latency: latency, jitter: jitter) }
}

/// SplitMix64: small, fast, and the same sequence on every platform.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
