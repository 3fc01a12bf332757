import Foundation
import PenInput
import PenKit
import PenTestSupport
@testable import penkitd
import Testing

/// The flight recorder's buffers against a plain model: whatever the lines' lengths and however
/// often the buffer wraps, it holds exactly the newest lines that fit, each intact, oldest first,
/// and never more than its capacity; the event ring keeps its newest events and says when it no
/// longer holds a tablet's first ones.
@Suite struct FlightRecorderRingTests {
    @Test(arguments: [1, 2, 3, 4])
    func theMessageRingHoldsTheNewestLinesThatFitIntact(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let capacity = 4096
        var ring = MessageRing(capacity: capacity)
        var model: [(time: UInt64, bytes: [UInt8])] = []
        for time in 1...3000 as ClosedRange<UInt64> {
            // Mostly frame-sized lines, now and then a long one, once in a while one longer than the buffer.
            let length = random.next() % 50 == 0 ? Int(random.next() % 6000) + 1 : Int(random.next() % 300) + 1
            let byte = UInt8(truncatingIfNeeded: time)
            let line = [UInt8](repeating: byte, count: length)
            line.withUnsafeBytes { ring.append($0, time: time) }
            if length <= capacity { model.append((time, line)) }
            // The model keeps what a ring of `capacity` bytes can: the newest lines whose total fits.
            var total = 0, keep = 0
            for entry in model.reversed() {
                guard total + entry.bytes.count <= capacity else { break }
                total += entry.bytes.count
                keep += 1
            }
            let held = ring.lines(since: 0)
            #expect(held.reduce(0) { $0 + $1.count } <= capacity)
            // Whole lines, each its own bytes, in order, the newest last.
            let newest = Array(model.suffix(held.count))
            #expect(held == newest.map(\.bytes), "time \(time)")
            // It may give up a little more than the model (a line does not wrap), never less than half.
            #expect(held.count <= keep && (keep == 0 || held.reduce(0) { $0 + $1.count } >= min(total, capacity / 2) - 6000),
                    "time \(time): holds \(held.count) of the \(keep) that fit")
        }
        #expect(ring.tooLong > 0)
        let since = ring.lines(since: 2990)
        #expect(since == model.filter { $0.time >= 2990 }.map(\.bytes))
    }

    /// A long stroke's whole line is kept from its pieces (`PartedStroke`), as one line; one
    /// longer than the buffer in pieces is counted too long, as a line in one piece is.
    @Test func aLineInPiecesIsKeptAsOneLine() {
        var ring = MessageRing(capacity: 64)
        let pieces: [[UInt8]] = [Array("{\"a\":[".utf8), Array("1,2".utf8), Array(",".utf8), Array("3]}".utf8)]
        func append(_ pieces: [[UInt8]], time: UInt64) {
            pieces[0].withUnsafeBytes { a in pieces[1].withUnsafeBytes { b in pieces[2].withUnsafeBytes { c in
                pieces[3].withUnsafeBytes { d in ring.append(pieces: [a, b, c, d], time: time) } } } }
        }
        append(pieces, time: 1)
        #expect(ring.lines(since: 0) == [Array("{\"a\":[1,2,3]}".utf8)])
        append(pieces.map { $0 + [UInt8](repeating: 32, count: 20) }, time: 2)
        #expect(ring.lines(since: 0).count == 1)
        #expect(ring.tooLong == 1)
    }

    @Test func theEventRingKeepsTheNewestAndKnowsWhenItLostTheFirst() {
        var ring = EventRing(capacity: 100)
        for t in 1...60 as ClosedRange<UInt64> { ring.append(EvdevEvent(time: t, type: 3, code: 0, value: Int32(t))) }
        #expect(ring.events(since: 0).map(\.time) == Array(1...60))
        #expect(ring.holdsEverything(since: 1) && !ring.holdsEverything(since: 2))
        for t in 61...250 as ClosedRange<UInt64> { ring.append(EvdevEvent(time: t, type: 3, code: 0, value: Int32(t))) }
        #expect(ring.count == 100)
        #expect(ring.events(since: 0).map(\.time) == Array(151...250))
        #expect(ring.events(since: 200).map(\.time) == Array(200...250))
        #expect(!ring.holdsEverything(since: 0), "events gave way")
    }

    /// The virtual tablet's grab leaves the recorder's descriptor without events: a window the
    /// grab held at any time says so; one that starts after it was let go does not.
    @Test func aWindowTheGrabHeldSaysGrabbed() throws {
        let recorder = FlightRecorder(seconds: 10, paced: true)
        recorder.deviceAdded(DeviceInfo(id: 3, name: "t", vendor: 0, product: 0, source: "/dev/input/event5"), description: nil)
        func grabbed(window: Int, now: UInt64) throws -> Bool? {
            let first = try #require(recorder.report(window: window, now: now, settings: [:]).first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
            return ((object["devices"] as? [[String: Any]])?.first)?["grabbed"] as? Bool
        }
        #expect(try grabbed(window: 10, now: MonotonicClock.now()) == false)
        recorder.grabChanged(device: 3, grabbed: true)
        #expect(try grabbed(window: 10, now: MonotonicClock.now()) == true)
        recorder.grabChanged(device: 3, grabbed: false)
        #expect(try grabbed(window: 10, now: MonotonicClock.now()) == true, "let go inside the window")
        #expect(try grabbed(window: 1, now: MonotonicClock.now() + 5_000_000) == false, "a window that starts after the grab was let go")

        // The virtual tablet grabs as the pipeline adds the device, before the recorder hears of it.
        let early = FlightRecorder(seconds: 10, paced: true)
        early.grabChanged(device: 4, grabbed: true)
        early.deviceAdded(DeviceInfo(id: 4, name: "t", vendor: 0, product: 0, source: "/dev/input/event6"), description: nil)
        let first = try #require(early.report(window: 10, now: MonotonicClock.now(), settings: [:]).first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
        #expect(((object["devices"] as? [[String: Any]])?.first)?["grabbed"] as? Bool == true, "a grab taken before the device reached the recorder")
    }

    /// A window under 30 s keeps all its seconds of lines in proportionally less than 8 MiB: fed
    /// 20 s of lines at 270 KB/s (a pen drawing without pause, `penkit replay --json` of the
    /// Intuos4 drag trace: 269 KB/s), a 10 s recorder reports every line of its 10 s, in 2.8 MB.
    @Test func aShorterWindowKeepsItsSecondsOfLinesInProportionallyLess() throws {
        let recorder = FlightRecorder(seconds: 10, paced: false)
        #expect(FlightRecorder.messageBytes(seconds: 10) == 2_800_000)
        #expect(FlightRecorder.messageBytes(seconds: 60) == 8 << 20 && FlightRecorder.messageBytes(seconds: 600) == 8 << 20)
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 299) + [UInt8(ascii: "\n")]
        let linesPerSecond = 900  // 900 × 300 B = 270 KB/s
        let step = UInt64(1_000_000 / linesPerSecond)
        var times: [UInt64] = []
        var time: UInt64 = 1_000_000
        for _ in 0..<(20 * linesPerSecond) {
            time += step
            times.append(time)
            recorder.recordLines(line, ranges: [(range: 0..<line.count, parted: nil)], time: time)
        }
        let report = recorder.report(window: 10, now: time, settings: [:])
        let end = try #require(report.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(end)) as? [String: Any])
        // Every line from 10 s before the newest on (the window includes its start).
        #expect(object["messages"] as? Int == times.filter { $0 >= time - 10_000_000 }.count)
    }
}
