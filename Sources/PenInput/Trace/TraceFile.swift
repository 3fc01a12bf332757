/// Opens a recording: evemu here, `libinput record` YAML through a reader the caller passes
/// (PenInputRecord's), so that what does not read YAML (penkitd) links neither Yams nor the
/// Foundation Yams brings.
package enum TraceFile {
    package enum Format: Sendable, Equatable {
        case evemu
        case libinputRecord
    }

    /// The most penkit reads of one file: far beyond any real recording (an hour of a 200 Hz pen
    /// is ~60 MB of evemu), and a bound on a pipe that never ends.
    package static let maximumSize = 256 << 20

    package static func load(path: String, readers: TraceReaders = .evemuOnly) throws -> Trace {
        let bytes = try BoundedFileReader.read(path: path, limit: maximumSize)
        return try parse(bytes: bytes, name: path, readers: readers)
    }

    /// Parses bytes already in memory; `name` stands for the file in errors.
    package static func parse(bytes: [UInt8], name: String, readers: TraceReaders = .evemuOnly) throws -> Trace {
        guard bytes.count <= maximumSize else {
            throw TraceError(file: name, line: 0, message: "larger than \(maximumSize >> 20) MiB, the most penkit reads: not a trace")
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            switch try detectFormat(buffer, name: name) {
            case .evemu: return try EvemuReader.parse(buffer, file: name)
            case .libinputRecord:
                guard let read = readers.libinputRecord else {
                    throw TraceError(file: name, line: 0, message: "a `libinput record` YAML file, which this program does not read: it reads evemu traces")
                }
                return try read(buffer, name)
            }
        }
    }

    /// Decides from the first lines: `# EVEMU` or an evemu line (`N:`, `E:`, ...) means evemu;
    /// `# libinput record` or anything else YAML-like means `libinput record`.
    package static func detectFormat(_ bytes: UnsafeBufferPointer<UInt8>, name: String) throws -> Format {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var i = start
            while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D) { i += 1 }
            if i < end {
                let line = UnsafeBufferPointer(rebasing: bytes[i..<end])
                if line[0] == UInt8(ascii: "#") {
                    if startsWith(line, "# EVEMU") || startsWith(line, "#EVEMU") { return .evemu }
                    if startsWith(line, "# libinput record") { return .libinputRecord }
                } else {
                    let evemuLine = line.count >= 2 && line[0] >= UInt8(ascii: "A") && line[0] <= UInt8(ascii: "Z")
                        && line[1] == UInt8(ascii: ":")
                    return evemuLine ? .evemu : .libinputRecord
                }
            }
            start = end + 1
        }
        throw TraceError(file: name, line: 0, message: "empty file (no lines but comments): not a trace")
    }

    private static func startsWith(_ line: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard line.count >= prefix.utf8CodeUnitCount else { return false }
        let p = prefix.utf8Start
        for k in 0..<prefix.utf8CodeUnitCount where line[k] != p[k] { return false }
        return true
    }
}
