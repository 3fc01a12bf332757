import Dispatch
import Glibc
import Synchronization

/// `journal-fsync = interval`: the segment is synced on a queue of its own, never on the input
/// thread. One fdatasync can wait seconds behind a disk busy writing back other files (a build,
/// a copy), and the input thread must not fall behind the pen for it.
final class BackgroundSync: Sendable {
    private struct State {
        var scheduled = false
        var failure: JournalError?
    }

    private let queue = DispatchQueue(label: "penkitd.journal-sync", qos: .utility)
    private let state = Mutex(State())
    private let intervalMilliseconds: Int

    init(intervalMilliseconds: Int) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Whether a sync is scheduled and has not run yet.
    var isSyncDue: Bool { state.withLock { $0.scheduled } }

    /// The failure of the last background sync, once: the next stroke reports the journal failing.
    func takeFailure() -> JournalError? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    /// Syncs `fd` within the interval, unless a sync is already due: a stroke written now reaches
    /// the disk at most one interval later. The sync works on a duplicate, so a rotation may
    /// close `fd` meanwhile.
    func schedule(_ fd: Int32, path: String) throws(JournalError) {
        let alreadyDue = state.withLock { state in
            defer { state.scheduled = true }
            return state.scheduled
        }
        if alreadyDue { return }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            state.withLock { $0.scheduled = false }
            throw .system("cannot duplicate \(path) to sync it", errno)
        }
        queue.asyncAfter(deadline: .now() + .milliseconds(intervalMilliseconds)) { [self] in
            let synced = fdatasync(copy) == 0
            let reason = errno
            close(copy)
            state.withLock { state in
                state.scheduled = false
                if !synced { state.failure = .system("cannot sync \(path)", reason) }
            }
        }
    }
}
