import PenInput

extension TraceReaders {
    /// evemu and `libinput record` YAML: what the penkit tool and the tests read.
    package static let all = TraceReaders(libinputRecord: { bytes, name in try LibinputRecordReader.parse(bytes, file: name) })
}
