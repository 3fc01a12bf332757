#if canImport(Glibc)
import Glibc
#endif
import CFuzzEntry

/// Runs libFuzzer with this process's arguments, feeding each input to `test`, and exits with its
/// status. SwiftPM links every executable's main through a module-named symbol, so each fuzz
/// target supplies main and hands over to libFuzzer's own entry for such programs (CFuzzEntry).
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(penkit_fuzz_run(&argc, &argv, test))
}
