/// Why a drawing file cannot be read. Nothing is returned from a file with any of these.
public enum DrawingFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with the drawing format's signature.
    case notADrawing
    /// Written by a newer penkit: this reader knows versions up to `supported`.
    case futureVersion(found: UInt16, supported: UInt16)
    /// The file ends before the length its header declares.
    case truncated(expected: Int, found: Int)
    /// The bytes are not what the format allows: wrong checksum, bad value, or extra bytes.
    case corrupt(offset: Int, reason: String)

    public var description: String {
        switch self {
        case .notADrawing:
            "not a penkit drawing (the file does not start with the drawing signature)"
        case .futureVersion(let found, let supported):
            "drawing format version \(found) is newer than this penkit reads (up to \(supported)); update penkit"
        case .truncated(let expected, let found):
            "truncated drawing: \(found) bytes of the \(expected) its header declares"
        case .corrupt(let offset, let reason):
            "corrupt drawing at byte \(offset): \(reason)"
        }
    }
}
