import ArgumentParser
import PenInput
import PenInputRecord
import PenKit

#if canImport(Glibc)
import Glibc
#endif

/// `penkit bench trace-read TRACE`: how long reading and checking a trace takes (file read included).
struct BenchTraceReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace-read",
        abstract: "Median time to read a trace file (evemu or libinput record YAML)."
    )

    @Argument(help: "The trace to read.")
    var trace: String

    @Option(help: "How many times to read it.")
    var runs = 11

    func run() throws {
        var millis: [Double] = []
        var events = 0
        for _ in 0..<max(1, runs) {
            let start = MonotonicClock.nanoseconds()
            let loaded = try TraceFile.load(path: trace, readers: .all)
            let end = MonotonicClock.nanoseconds()
            events = loaded.devices.reduce(0) { $0 + $1.events.count }
            millis.append(Double(end - start) / 1e6)
        }
        millis.sort()
        let median = millis[millis.count / 2]
        let round = { (ms: Double) in (ms * 100).rounded() / 100 }
        print("trace-read \(trace): \(events) events, median \(round(median)) ms over \(millis.count) runs (min \(round(millis[0])) ms)")
    }
}
