import PenInput
import PenKit

/// What a trace holds, from the trace reader and decoder rather than from penkitd:
/// the number of tip-down … tip-up contacts, each of which must become one stroke.
func tipDowns(in trace: String) throws -> Int {
    let loaded = try TraceFile.load(path: tracePath(trace))
    var count = 0
    for device in loaded.devices {
        var decoder = try TabletDecoder(device: device.description)
        var events: [TabletEvent] = []
        for event in device.events {
            decoder.advance(to: event.time, into: &events)
            decoder.feed(event, into: &events)
        }
        decoder.advance(to: (device.events.last?.time ?? 0) + 1_000_000, into: &events)
        count += events.filter { $0.kind == .tip && $0.state == .down }.count
    }
    return count
}
