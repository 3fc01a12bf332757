import Foundation
@testable import penkitd
import Testing

/// The floor of numbers handed out while the journal could not record them (a full disk).
@Suite struct SeqFloorTests {
    @Test func aFailedBeganRecordNeverLowersTheFloor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seq-floor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var floor = try SeqFloor(directory: directory, seq: 8, strokeID: 9, sync: false)
        // As the journal stores it on failures: a stroke (seq 25), then the next stroke's `began` (seq 0).
        floor.store(seq: 25, strokeID: 26)
        floor.store(seq: 0, strokeID: 27)
        floor.close()
        let read = try #require(SeqFloor.read(directory: directory))
        // Before the fix the began record's 0 was stored, and a restart reused seq 9 on: the
        // full-disk integration test's SIGKILL landed after a began record now and then.
        #expect(read.seq == 25)
        #expect(read.strokeID == 27)
    }
}
