import PenKit

/// Opens a recording in any supported format (evemu or `libinput record` YAML).
public enum TraceFile {
    public static func load(path: String) throws -> Trace {
        // Implemented by the trace readers (EvemuReader, LibinputRecordReader).
        throw TraceError(file: path, line: 0, message: "trace readers not implemented yet")
    }
}

/// A trace that cannot be read, naming the file and line at fault.
public struct TraceError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
