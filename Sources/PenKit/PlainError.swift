import Foundation

/// Foundation's file errors print as `Error Domain=NSCocoaErrorDomain Code=260 … UserInfo={…}`;
/// the command-line tools show them as one plain sentence instead.
package struct PlainError: Error, CustomStringConvertible, Sendable {
    package var description: String

    /// `error` itself unless it is a Foundation file error, which becomes "cannot read PATH: reason".
    package static func replacingFoundationErrors(_ error: Error) -> Error {
        guard let cocoa = error as? CocoaError else { return error }
        let path = cocoa.filePath ?? cocoa.url?.path ?? "a file"
        let reason = posixCode(cocoa.userInfo[NSUnderlyingErrorKey]).map { String(cString: strerror($0)) }
            ?? cocoa.localizedDescription
        let verb = switch cocoa.code.rawValue {
        case 256..<512: "cannot read"
        case 512..<1024: "cannot write"
        default: "cannot use"
        }
        return PlainError(description: "\(verb) \(path): \(reason)")
    }

    /// The errno under a file error (stored as a POSIXError or as an NSError of that domain).
    private static func posixCode(_ underlying: Any?) -> Int32? {
        if let posix = underlying as? POSIXError { return posix.code.rawValue }
        if let error = underlying as? NSError, error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        return nil
    }
}
