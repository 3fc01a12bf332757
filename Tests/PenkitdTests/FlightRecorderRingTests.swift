import Foundation
import PenInput
import PenKit
import PenTestSupport
@testable import penkitd
import Testing

/// The flight recorder's buffers against a plain model: the digest ring holds exactly the newest
/// digests, oldest first, however often it wraps, and never more than its capacity; a line digested
/// from its pieces (a long stroke in parts) is digested as the whole line; the event ring keeps its
/// newest events and says when it no longer holds a tablet's first ones.
@Suite struct FlightRecorderRingTests {
    @Test(arguments: [1, 2, 3, 4])
    func theDigestRingHoldsTheNewestDigests(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let capacity = Int(random.next() % 500) + 1
        var ring = DigestRing(capacity: capacity)
        var model: [DigestRing.Entry] = []
        for time in 1...3000 as ClosedRange<UInt64> {
            let digest = LineDigest(kind: .frame, inStroke: random.next() % 2 == 0, full: random.next(), core: random.next(),
                                    number: random.next() % 100)
            ring.append(digest, time: time)
            model.append(DigestRing.Entry(time: time, digest: digest))
            #expect(ring.count <= capacity)
            if time % 97 == 0 { #expect(ring.entries(since: 0) == Array(model.suffix(capacity)), "time \(time)") }
        }
        #expect(ring.entries(since: 2990) == model.filter { $0.time >= 2990 })
    }

    /// However a line is cut into pieces, its digest is the whole line's: penkitd digests a long
    /// stroke from its parts, the check the line it regenerates whole.
    @Test(arguments: [1, 2, 3])
    func aLineInPiecesHasTheWholeLinesDigest(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let line = Array(#"{"type":"stroke","seq":12,"stroke":{"id":7,"points":[[1,2,3],[4,5,6],[7,8,9]]},"device":3}"#.utf8)
        var whole = LineDigest.Hasher()
        line.withUnsafeBytes { whole.feed($0) }
        for _ in 0..<50 {
            var pieces = LineDigest.Hasher()
            var at = 0
            while at < line.count {
                let end = min(line.count, at + Int(random.next() % 11))
                line[at..<end].withUnsafeBytes { pieces.feed($0) }
                at = end
            }
            #expect(pieces.finish() == whole.finish())
        }
        let digest = LineDigest.of(String(decoding: line, as: UTF8.self))
        #expect(digest?.full == whole.finish() && digest?.number == 12 && digest?.kind == .stroke)
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

    /// The chunked ring against a plain model, across many chunks: it holds exactly the newest
    /// elements that are within its capacity and no older than its span before the newest,
    /// whatever the pace; and it takes no more chunks than the most it held at once needs.
    @Test(arguments: [1, 2, 3])
    func theStampedRingHoldsTheNewestWithinItsCapacityAndSpan(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let chunk = StampedRing<EvdevEvent>.chunkSize
        let capacity = chunk * 3 + Int(random.next() % UInt64(chunk))
        let span: UInt64 = 50_000
        var ring = EventRing(capacity: capacity, span: span)
        // Everything appended; the model holds all[first...].
        var all: [EvdevEvent] = []
        var first = 0
        var time: UInt64 = 1
        for i in 0..<(chunk * 12) {
            // Bursts (1 µs apart, the capacity binds) and slow stretches (the span binds).
            time += (i / chunk) % 2 == 0 ? 1 : 1 + random.next() % 40
            let event = EvdevEvent(time: time, type: 3, code: 0, value: Int32(truncatingIfNeeded: i))
            ring.append(event)
            all.append(event)
            while all.count - first > capacity || all[first].time < (time > span ? time - span : 0) { first += 1 }
            if ring.count != all.count - first { Issue.record("event \(i): \(ring.count) held, \(all.count - first) expected") }
            if i % 4099 == 0 { #expect(ring.events(since: 0) == Array(all[first...]), "event \(i)") }
        }
        let model = Array(all[first...])
        #expect(ring.events(since: 0) == model)
        #expect(ring.events(since: time - 1000) == model.filter { $0.time >= time - 1000 })
        #expect(!ring.holdsEverything(since: 0))
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

    /// A 10 s window reports the digest of every engine line of its 10 s (fed 20 s at 900
    /// lines a second, within the 1000 a second the ring is sized for), and none of other lines.
    @Test func aWindowReportsTheDigestOfEveryEngineLineOfItsSeconds() throws {
        let recorder = FlightRecorder(seconds: 10, paced: false)
        let line = Array(#"{"type":"ended","stroke":4,"t":5,"cancelled":false,"pendingUpdates":0,"device":1}"#.utf8) + [UInt8(ascii: "\n")]
        let other = Array(#"{"type":"device","change":"added","device":1}"#.utf8) + [UInt8(ascii: "\n")]
        let batch = line + other
        let linesPerSecond = 900
        let step = UInt64(1_000_000 / linesPerSecond)
        var times: [UInt64] = []
        var time: UInt64 = 1_000_000
        for _ in 0..<(20 * linesPerSecond) {
            time += step
            times.append(time)
            recorder.recordLines(batch, lines: [(range: 0..<line.count, parted: nil, sourceTime: 0),
                                                (range: line.count..<batch.count, parted: nil, sourceTime: 0)], time: time)
        }
        let report = recorder.report(window: 10, now: time, settings: [:])
        let end = try #require(report.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(end)) as? [String: Any])
        // Every line from 10 s before the newest on (the window includes its start).
        #expect(object["lines"] as? Int == times.filter { $0 >= time - 10_000_000 }.count)
        let digest = try #require(LineDigest.of(String(decoding: line, as: UTF8.self)))
        // An `ended` carries no engine-wide counter: its number is 0.
        let rows = report.compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
            .filter { $0["type"] as? String == "recording-digests" }.flatMap { $0["lines"] as? [[Any]] ?? [] }
        #expect(rows.count == object["lines"] as? Int)
        #expect(rows.allSatisfy { $0[1] as? String == "ended" && $0[3] as? String == LineDigest.hex(digest.full) && $0[5] as? Int == 0 })
    }

    /// The tools' ledger against a plain model: tools kept once each, in first-seen order, up to
    /// its bound and counted beyond it; whatever the number of tilt changes, what was known at
    /// any time after the oldest change kept is what the whole history says.
    @Test(arguments: [1, 2, 3])
    func theToolLedgerKnowsWhatTheWholeHistoryKnew(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var ledger = ToolLedger()
        var history: [ToolLedger.TiltChange] = []
        let tools = (0..<100).map { (n: Int) -> ToolIdentity in
            ToolIdentity(type: n % 2 == 0 ? .pen : .eraser, serial: UInt64(n / 2), id: UInt64(n))
        }
        for time in 1...1000 as ClosedRange<UInt64> {
            let tool = tools[Int(random.next() % 100)]
            ledger.proximityIn(tool, at: time)
            if random.next() % 3 == 0 {
                let change = ToolLedger.TiltChange(time: time, tool: tools[Int(random.next() % 5)], withoutTilt: random.next() % 2 == 0)
                history.append(change)
                ledger.tiltLearned(change.tool, withoutTilt: change.withoutTilt, at: time)
            }
        }
        #expect(ledger.tools.count == ToolLedger.toolsKept && ledger.toolsDropped > 0)
        #expect(Set(ledger.tools.map(\.tool)).count == ledger.tools.count)
        #expect(ledger.tools.map(\.since) == ledger.tools.map(\.since).sorted())
        #expect(ledger.changes == Array(history.suffix(ToolLedger.changesKept)))
        func known(_ changes: [ToolLedger.TiltChange], base: [ToolIdentity], at time: UInt64) -> Set<ToolIdentity> {
            var set = Set(base)
            for change in changes where change.time < time {
                if change.withoutTilt { set.insert(change.tool) } else { set.remove(change.tool) }
            }
            return set
        }
        let oldestKept = ledger.changes[0].time
        for time in stride(from: oldestKept, through: 1001, by: 7) {
            #expect(known(ledger.changes, base: ledger.withoutTiltBefore, at: time) == known(history, base: [], at: time), "at \(time)")
        }
    }
}
