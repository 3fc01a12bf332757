import PenInput

/// Why a uinput replay could not run, worded for the person at the terminal.
public struct UinputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
