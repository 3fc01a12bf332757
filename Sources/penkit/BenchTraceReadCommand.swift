import ArgumentParser
import PenInput

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
            var start = timespec()
            var end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            let loaded = try TraceFile.load(path: trace)
            clock_gettime(CLOCK_MONOTONIC, &end)
            events = loaded.devices.reduce(0) { $0 + $1.events.count }
            millis.append(Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6)
        }
        millis.sort()
        let median = millis[millis.count / 2]
        let round = { (ms: Double) in (ms * 100).rounded() / 100 }
        print("trace-read \(trace): \(events) events, median \(round(median)) ms over \(millis.count) runs (min \(round(millis[0])) ms)")
    }
}
