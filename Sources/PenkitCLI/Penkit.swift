import ArgumentParser
import PenInputLinux
import PenKit
import PenOracle

@main
struct Penkit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "penkit",
        abstract: "Pen input for Linux tablets: replay traces, watch the daemon, benchmark.",
        version: PenkitVersion.string,
        subcommands: [ReplayCommand.self, BenchCommand.self, DoctorCommand.self, OracleCommand.self, LibinputEventsCommand.self,
                      EventsCommand.self, StrokesCommand.self, DevicesCommand.self, ViewCommand.self, PressureFeedCommand.self,
                      CompareCommand.self, DrawCommand.self, DrawingCommand.self,
                      SurfaceFitCommand.self, RecordCommand.self, InkResponseCommand.self, SettingsCommand.self]
    )
}
