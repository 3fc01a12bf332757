/// Placeholder until the YAML reader lands.
public enum LibinputRecordReader {
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Trace {
        throw TraceError(file: file, line: 0, message: "libinput record YAML is not supported yet")
    }
}
