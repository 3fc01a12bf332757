/// A trace that cannot be read, naming the file and line at fault.
public struct TraceError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// 1-based line of the fault; 0 when the fault is not on one line (a missing file, a file too large).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
