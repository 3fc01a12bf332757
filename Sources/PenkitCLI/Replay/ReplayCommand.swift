import ArgumentParser
import PenInput
import PenKit

/// `penkit replay TRACE`: one front door for three jobs, each in its own file —
/// decoded tablet events (ReplayEvents.swift), the daemon's messages
/// (ReplayMessages.swift), and playback through the kernel (ReplayUinput.swift).
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Decode a recorded trace (evemu or libinput record YAML)."
    )

    @Argument(help: "An evemu recording or a `libinput record` YAML file.")
    var trace: String

    @Flag(help: "Print decoded tablet events, like `libinput debug-events`.")
    var events = false

    @Flag(help: "Print JSON, one object per line.")
    var json = false

    @Option(help: "Move pressure into a second stream delayed by MS[±JITTER] milliseconds.")
    var latePressure: String?

    @Flag(help: "Play the trace through a new uinput device with its original timing.")
    var uinput = false

    @OptionGroup var decoding: TraceDecodingOptions

    @Option(help: "Play at this multiple of the recorded pace (0.5: gaps twice as long), with --uinput or not.")
    var speed: Double = 1

    @Flag(help: "For a report of `penkit record`: say whether replaying it reproduces the messages penkitd sent (exit 1 when not).")
    var check = false

    func validate() throws {
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
    }

    var decoderOptions: DecoderOptions { decoding.decoderOptions }

    func run() async throws {
        if check {
            try ReplayCheck.run(self)
        } else if uinput {
            try await replayThroughUinput(self)
        } else if events {
            try replayEvents(self)
        } else {
            try await replayMessages(self)
        }
    }
}
