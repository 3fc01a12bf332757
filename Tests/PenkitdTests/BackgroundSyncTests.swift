import Foundation
@testable import penkitd
import Testing

/// `journal-fsync = interval` syncs on a queue of its own: a sync it could not do is reported
/// once, to the next stroke, and a descriptor closed meanwhile (a rotation) is not its problem.
@Suite struct BackgroundSyncTests {
    @Test func aFailedSyncIsReportedOnceToTheNextStroke() throws {
        // fdatasync(2) of a pipe fails (EINVAL): a real failure, without filling a disk.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let sync = BackgroundSync(intervalMilliseconds: 1)
        try sync.schedule(ends[1], path: "pipe")
        var failure: JournalError?
        let deadline = Date().addingTimeInterval(60)
        while failure == nil, Date() < deadline {
            failure = sync.takeFailure()
            if failure == nil { usleep(1_000) }
        }
        #expect(failure == .system("cannot sync pipe", EINVAL))
        #expect(sync.takeFailure() == nil)
    }

    @Test func theSyncWorksOnItsOwnDescriptorSoARotationMayCloseTheSegment() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString.prefix(8))").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        let sync = BackgroundSync(intervalMilliseconds: 1)
        try sync.schedule(fd, path: path)
        // Closed before the sync runs, as a rotation does: a sync of this descriptor number would fail (EBADF).
        close(fd)
        let deadline = Date().addingTimeInterval(60)
        while sync.isSyncDue, Date() < deadline { usleep(1_000) }
        #expect(!sync.isSyncDue)
        #expect(sync.takeFailure() == nil)
    }
}
