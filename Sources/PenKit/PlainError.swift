import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Foundation's file errors print as `Error Domain=NSCocoaErrorDomain Code=260 … UserInfo={…}`;
/// the command-line tools show them as one plain sentence instead.
package struct PlainError: Error, CustomStringConvertible, Sendable {
    package var description: String

    /// `error` itself unless it is a Foundation file error, which becomes "cannot read PATH: reason".
    package static func replacingFoundationErrors(_ error: Error) -> Error {
        guard let cocoa = error as? CocoaError else { return error }
        let path = cocoa.filePath ?? cocoa.url?.path ?? "a file"
        // "NSUnderlyingError" is NSUnderlyingErrorKey, which FoundationEssentials does not declare.
        let reason = posixCode(cocoa.userInfo["NSUnderlyingError"]).map { String(cString: strerror($0)) }
            ?? reasonWithoutErrno(cocoa.code)
        let verb = switch cocoa.code.rawValue {
        case 256..<512: "cannot read"
        case 512..<1024: "cannot write"
        default: "cannot use"
        }
        return PlainError(description: "\(verb) \(path): \(reason)")
    }

    /// The reason when no errno comes with the error (localizedDescription is full Foundation's).
    private static func reasonWithoutErrno(_ code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: String(cString: strerror(EACCES))
        case .fileReadInapplicableStringEncoding: "not text in the expected encoding"
        case .fileReadTooLarge: String(cString: strerror(EFBIG))
        case .fileWriteOutOfSpace: String(cString: strerror(ENOSPC))
        case .fileWriteFileExists: String(cString: strerror(EEXIST))
        default: "file error \(code.rawValue)"
        }
    }

    /// The errno under a file error (stored as a POSIXError or as an NSError of that domain).
    private static func posixCode(_ underlying: Any?) -> Int32? {
        if let posix = underlying as? POSIXError { return posix.code.rawValue }
        // An NSError (full Foundation's, in the penkit tool) read through the standard library's
        // Error bridging properties: PenKit imports FoundationEssentials only, which has no NSError.
        if let error = underlying as? any Error, error._domain == "NSPOSIXErrorDomain" { return Int32(error._code) }
        return nil
    }
}
