import PenInput

#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's own entry for programs that have a main of their own. SwiftPM links every
/// executable's main through a module-named symbol, so this target supplies main and hands it over.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@main
enum FuzzEvemuReaderMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            guard let data else { return 0 }
            return fuzzEvemuReader(data, size)
        })
    }
}

/// libFuzzer entry: any bytes must give a Trace that keeps the readers' promises, or a
/// TraceError; a crash, hang, leak or broken promise is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemuReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = try? TraceFile.detectFormat(bytes, name: "fuzz")
    if let trace = try? EvemuReader.parse(bytes, file: "fuzz") {
        if let violation = TraceInvariants.firstViolation(in: trace) { fatalError(violation) }
    }
    return 0
}
