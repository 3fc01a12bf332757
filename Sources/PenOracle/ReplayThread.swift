import Glibc
import PenInput
import PenInputLinux

/// Plays a uinput replay on its own thread, so the thread reading libinput never delays a
/// frame and a frame never delays libinput. Completion is signalled on a pipe the
/// reading thread can poll with its other descriptors.
///
/// Unchecked because the replay runs on a raw pthread, which the compiler cannot follow. Safe
/// because each mutable part has one thread at a time: `player`, `start` and the two descriptors
/// are set in init and never reassigned; `thread` is read and written only by the owner, in
/// `launch()` and `join()`; `outcome` is written once by the replay thread and read by the owner
/// only after `pthread_join`, which orders that write before the read; `player` (a class, not
/// Sendable) is used only by the replay thread until the owner has joined it (LibinputOracle
/// touches it only after `join()`); and `launch()` refuses to start a second thread while one is
/// running.
final class ReplayThread: @unchecked Sendable {
    private let player: UinputPlayer
    private let start: UInt64
    private var outcome: Result<UinputPlayer.Report, Error>?
    private var thread: pthread_t?
    /// Becomes readable when the replay has finished.
    let doneFD: Int32
    private let signalFD: Int32

    init(player: UinputPlayer, startingAt start: UInt64) throws {
        self.player = player
        self.start = start
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw UinputError("pipe failed: \(String(cString: strerror(errno)))") }
        doneFD = fds[0]
        signalFD = fds[1]
    }

    deinit {
        close(doneFD)
        close(signalFD)
    }

    func launch() throws {
        guard thread == nil else { throw UinputError("the replay thread is already running") }
        let context = Unmanaged.passRetained(self).toOpaque()
        var id = pthread_t()
        let rc = pthread_create(&id, nil, { raw in
            let me = Unmanaged<ReplayThread>.fromOpaque(raw!).takeRetainedValue()
            RealtimeScheduling.raiseCurrentThread(priority: 20)
            me.outcome = Result { try me.player.play(startingAt: me.start) }
            var one: UInt8 = 1
            _ = write(me.signalFD, &one, 1)
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<ReplayThread>.fromOpaque(context).release()
            throw UinputError("cannot start the replay thread: \(String(cString: strerror(rc)))")
        }
        thread = id
    }

    /// Waits for the replay to end and returns its report.
    func join() throws -> UinputPlayer.Report {
        if let thread { pthread_join(thread, nil) }
        thread = nil
        guard let outcome else { throw UinputError("the replay thread did not run") }
        return try outcome.get()
    }
}
