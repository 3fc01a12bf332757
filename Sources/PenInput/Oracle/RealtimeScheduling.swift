import Glibc

/// Best effort: asks for SCHED_FIFO for the calling thread, so that inside a busy (emulated)
/// guest the replay and the libinput reader are not delayed behind other processes.
/// Needs root or CAP_SYS_NICE; without it nothing changes.
enum RealtimeScheduling {
    @discardableResult
    static func raiseCurrentThread(priority: Int32) -> Bool {
        var param = sched_param()
        param.sched_priority = priority
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0
    }
}
