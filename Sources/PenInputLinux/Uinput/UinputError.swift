import PenInput

/// Why a uinput replay could not run, worded for the person at the terminal.
package struct UinputError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
