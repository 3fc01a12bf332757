import CZlib

/// A stroke's line as the history keeps it once it has been held a while: deflated (zlib, its
/// fastest level), about a third of its bytes. A stroke's JSON repeats its keys at every point,
/// and the history holds a thousand strokes for clients that come back with `since`: kept whole
/// they were most of penkitd's memory (docs/measurements/2026-11-29-lean-flight-recorder.md).
struct DeflatedLine: Sendable {
    let bytes: [UInt8]
    /// The line's length whole, newline included.
    let count: Int

    /// nil when zlib fails or the line would not get smaller.
    init?(_ line: [UInt8]) {
        var size = compressBound(UInt(line.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            line.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, UInt(source.count), Z_BEST_SPEED)
            }
        }
        guard status == Z_OK, Int(size) < line.count else { return nil }
        // A copy of exactly the deflated bytes: `out` was allocated as large as the whole line
        // (and zeroed, so resident), and cutting it short keeps that capacity.
        bytes = Array(out[..<Int(size)])
        count = line.count
    }

    /// The line whole again; nil only if the bytes were damaged.
    func inflated() -> [UInt8]? {
        var size = UInt(count)
        var out = [UInt8](repeating: 0, count: count)
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &size, source.baseAddress, UInt(source.count))
            }
        }
        guard status == Z_OK, Int(size) == count else { return nil }
        return out
    }
}
