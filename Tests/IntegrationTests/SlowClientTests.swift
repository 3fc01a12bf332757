import Foundation
import PenInput
import PenKit
import Testing

/// A client that stops reading costs only itself: the input thread writes to the others
/// without waiting on it, and its own frames are dropped once its buffers are full.
@Suite(.serialized)
struct SlowClientTests {
    static let trace = "wacom-dth2242-pen.evemu"

    @Test func aStalledClientDelaysNeitherAnotherClientNorTheInput() throws {
        let expectedFrames = try frameEvents(in: Self.trace)
        let expectedStrokes = try tipDowns(in: Self.trace)
        // The trace's 620 KB of frames overflow the stalled client's socket buffer (about 200 KB)
        // plus penkitd's default 64 KiB for it; a reader on a busy host has that much slack too.
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--realtime", "--wait-clients", "2",
                                        "--exit-after-replay"])
        let stalled = try daemon.connect()
        let reader = try daemon.connect()
        try stalled.subscribe(["frames"])
        try reader.subscribe(["frames", "strokes"])

        // The reader gets every frame and every stroke, and never a `dropped` report.
        let lines = try reader.readAll()
        let frames = lines.filter { type($0) == "frame" }.count
        #expect(frames == expectedFrames)
        #expect(lines.filter { type($0) == "stroke" }.compactMap(seq) == Array(1...UInt64(expectedStrokes)))
        #expect(!lines.contains { type($0) == "dropped" })
        #expect(type(lines.last ?? "") == "shutdown")

        // The input ran the whole trace and the daemon stopped while the stalled client had
        // still read nothing: nothing on the input side waited for it.
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")

        // What the stalled client holds is what fitted in its buffers: fewer frames than the
        // trace has, so the rest were dropped for it rather than queued without bound.
        let stalledLines = try stalled.readAll()
        let stalledFrames = stalledLines.filter { type($0) == "frame" }.count
        #expect(stalledFrames > 0)
        #expect(stalledFrames < expectedFrames, "the stalled client got all \(stalledFrames) frames: it never filled up")
    }

    /// Unpaced, penkitd gathers many lines into one write per client: a client that could not
    /// take them still has every frames-channel line either delivered or counted in `dropped`,
    /// exactly as a client that read all along.
    @Test func anUnpacedReplayCountsEveryLineItDidNotDeliver() throws {
        let trace = "wacom-cintiq-22hdt-pen.evemu"
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--wait-clients", "2"])
        defer { _ = daemon.stop() }
        let stalled = try daemon.connect()
        let reader = try daemon.connect()
        try stalled.subscribe(["frames"])
        try reader.subscribe(["frames", "devices"])
        // The replay is over once its device is removed; the stalled client has read nothing yet.
        let readerLines = try reader.read(until: { type($0) == "device" && object($0)["change"] as? String == "removed" }, timeout: 120)
        let readerTotal = Self.deliveredOrDropped(readerLines)
        #expect(readerTotal >= (try frameEvents(in: trace)))

        var stalledLines: [String] = []
        while Self.deliveredOrDropped(stalledLines) < readerTotal, let line = try stalled.readLine(timeout: 60) {
            stalledLines.append(line)
        }
        #expect(stalledLines.contains { type($0) == "dropped" }, "the stalled client never filled up")
        #expect(Self.deliveredOrDropped(stalledLines) == readerTotal)
    }

    /// Lines of the frames channel received, plus those `dropped` reports counted.
    static func deliveredOrDropped(_ lines: [String]) -> Int {
        lines.reduce(0) { total, line in
            switch type(line) {
            case "frame", "began", "ended", "proximity": total + 1
            case "dropped": total + ((object(line)["frames"] as? NSNumber)?.intValue ?? 0)
            default: total
            }
        }
    }
}

/// Frames the stroke engine sends for a trace, counted from its decoded tablet events: one
/// per proximity-in, tip-down and axis event, and one per tip-up that moves an axis (the first
/// hover position after the stroke).
func frameEvents(in trace: String) throws -> Int {
    let loaded = try TraceFile.load(path: tracePath(trace))
    var count = 0
    for device in loaded.devices {
        for event in try TabletDecoder.decode(device.events, device: device.description) {
            switch (event.kind, event.state) {
            case (.proximity, .proximityIn?), (.tip, .down?), (.axis, _): count += 1
            case (.tip, .up?) where !event.changedAxes.isEmpty: count += 1
            default: break
            }
        }
    }
    return count
}
