import ArgumentParser
import Foundation
import PenInput
import PenInputRecord
import PenKit

/// `penkit replay TRACE --events [--json]`: every device of the trace through the tablet
/// decoder, printed like `libinput debug-events` or as one JSON object per line. Devices that
/// libinput would not treat as pen tablets are named on stderr with the reason.
func replayEvents(_ command: ReplayCommand) throws {
    let trace = try TraceFile.load(path: command.trace, readers: .all)
    var decoded: [(device: Int, event: TabletEvent)] = []
    var usable = 0
    for (index, device) in trace.devices.enumerated() {
        do {
            let events = try TabletDecoder.decode(device.events, device: device.description,
                                                  options: command.decoderOptions)
            usable += 1
            decoded += events.map { (index, $0) }
        } catch let error as DecoderError {
            FileHandle.standardError.write(Data("penkit: \(command.trace): device \(index) \"\(device.description.name)\" ignored: \(error)\n".utf8))
        }
    }
    // devices interleave by time, as a live libinput context would deliver them
    decoded.sort { $0.event.time < $1.event.time }
    var out = ""
    var format = DebugEventsFormat(start: decoded.first?.event.time ?? 0)
    for (device, event) in decoded {
        out += command.json ? event.jsonLine() : format.line(event, device: device)
        out += "\n"
        if out.utf8.count > 1 << 16 {
            FileHandle.standardOutput.write(Data(out.utf8))
            out = ""
        }
    }
    FileHandle.standardOutput.write(Data(out.utf8))
    if usable == 0 { throw ExitCode(2) }
}
