import FuzzDriver
import PenInput
import PenInputRecord

@main
enum FuzzLibinputRecordReaderMain {
    static func main() { runFuzzer { data, size in data.map { fuzzLibinputRecordReader($0, size) } ?? 0 } }
}

/// libFuzzer entry: any bytes must give a Trace that keeps the readers' promises, or a
/// TraceError; a crash, hang, leak or broken promise is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecordReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let trace = try? LibinputRecordReader.parse(bytes, file: "fuzz") {
        if let violation = TraceInvariants.firstViolation(in: trace) { fatalError(violation) }
    }
    return 0
}
