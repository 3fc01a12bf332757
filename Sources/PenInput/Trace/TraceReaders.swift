/// The trace formats a caller reads besides evemu. Each lives in a target of its own with what it
/// needs (PenInputRecord: Yams), so that a program that does not read it does not link it.
package struct TraceReaders: Sendable {
    /// Parses a whole file; the string names it in errors.
    package typealias Reader = @Sendable (UnsafeBufferPointer<UInt8>, String) throws -> Trace

    /// `libinput record` YAML; nil: such a file is an error.
    package var libinputRecord: Reader?

    package init(libinputRecord: Reader? = nil) {
        self.libinputRecord = libinputRecord
    }

    /// What PenInput reads by itself (penkitd's replay).
    package static let evemuOnly = TraceReaders()
}
