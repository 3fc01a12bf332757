/// A trace that cannot be read, naming the file and line at fault.
package struct TraceError: Error, CustomStringConvertible, Sendable, Equatable {
    package var file: String
    /// 1-based line of the fault; 0 when the fault is not on one line (a missing file, a file too large).
    package var line: Int
    package var message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    package var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
