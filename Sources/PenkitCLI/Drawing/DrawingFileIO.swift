import Foundation
import PenKit

/// Reading and writing drawing files for the command line.
extension DrawingFile {
    static func write(_ drawing: Drawing, to path: String) throws {
        try Data(encode(drawing)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func read(from path: String) throws -> Drawing {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw DrawingFileError(message: "\(path): cannot read: \(error.localizedDescription)")
        }
        do {
            return try decode([UInt8](data))
        } catch {
            throw DrawingFileError(message: "\(path): \(error)")
        }
    }
}

struct DrawingFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
