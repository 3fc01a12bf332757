#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LineDigest {
    /// Where a frame line's parts begin, as `LineDigest.of` cuts it: `,"predicted":[`, then
    /// `,"delivered":{` (or `device` where there is none), then `,"device":`; whether it names a
    /// stroke, and its sample's `updateIndex` (0 without one). nil for a line not shaped as
    /// penkitd writes frames, which is then digested whole.
    ///
    /// penkitd's input thread digests every frame it publishes, so this reads as few bytes as it
    /// can: the tool and the sample hold no object inside them, so memchr finds where each ends,
    /// and the `delivered` object and `device` are found back from the line's end.
    struct FramePlaces {
        var predicted: Int
        var delivered: Int
        var device: Int
        var inStroke: Bool
        var updateIndex: UInt64

        init?(_ bytes: UnsafeRawBufferPointer) {
            let end = bytes.count
            guard let base = bytes.baseAddress,
                  let device = LineDigest.find(#","device":"#, in: bytes, from: 0, to: end, backwards: true) else { return nil }
            // the tool's object closes at the line's first '}'
            guard let toolEnd = Self.index(of: UInt8(ascii: "}"), in: base, from: 0, to: device) else { return nil }
            var sample = toolEnd + 1
            inStroke = Self.matches(#","stroke":"#, bytes, at: sample)
            if inStroke {
                sample += 10
                while sample < device, bytes[sample] >= UInt8(ascii: "0"), bytes[sample] <= UInt8(ascii: "9") { sample += 1 }
            }
            guard Self.matches(#","sample":{"#, bytes, at: sample),
                  let sampleEnd = Self.index(of: UInt8(ascii: "}"), in: base, from: sample + 11, to: device) else { return nil }
            predicted = sampleEnd + 1
            guard Self.matches(#","predicted":["#, bytes, at: predicted) else { return nil }
            // `"updateIndex":N` is the sample's last key when it has one
            var digits = sampleEnd
            while digits > sample, bytes[digits - 1] >= UInt8(ascii: "0"), bytes[digits - 1] <= UInt8(ascii: "9") { digits -= 1 }
            let key = digits - 14
            updateIndex = digits < sampleEnd && key > sample && Self.matches(#""updateIndex":"#, bytes, at: key)
                ? LineDigest.parseNumber(bytes, at: digits) : 0
            // `delivered`, a flat object, ends just before `,"device":`
            delivered = device
            if device > 0, bytes[device - 1] == UInt8(ascii: "}"),
               let open = Self.lastIndex(of: UInt8(ascii: "{"), in: bytes, from: predicted, to: device - 1),
               open >= 13, Self.matches(#","delivered":{"#, bytes, at: open - 13) {
                delivered = open - 13
            }
            self.device = device
        }

        static func matches(_ text: StaticString, _ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard start >= 0, start + count <= bytes.count, let base = bytes.baseAddress else { return false }
            return memcmp(base + start, text.utf8Start, count) == 0
        }

        static func index(of byte: UInt8, in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
            guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }

        /// A short way back (`delivered` is a few numbers): glibc's memrchr is not in Swift's Glibc.
        static func lastIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
            var i = to - 1
            while i >= from {
                if bytes[i] == byte { return i }
                i -= 1
            }
            return nil
        }
    }
}
