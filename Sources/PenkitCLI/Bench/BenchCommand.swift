import ArgumentParser

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks that print figures (never tests).",
        subcommands: [BenchTraceReadCommand.self, BenchEngineCommand.self, PredictBenchCommand.self, PredictCostCommand.self, PredictTuneCommand.self, BenchLatencyCommand.self,
                      BenchRSSCommand.self, BenchJournalCommand.self, BenchDataPlaneCommand.self, BenchSoakCommand.self, BenchPressureCommand.self,
                      BenchVirtualTabletCommand.self, BenchRecorderCommand.self]
    )
}
