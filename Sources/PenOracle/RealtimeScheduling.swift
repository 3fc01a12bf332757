import Glibc
import PenInput
import PenInputLinux

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

/// Best effort: locks every page of the process in memory. In the VM the program and the
/// Swift runtime are read from the host over 9p; a page fault there in the middle of a
/// replay stalls the writer for tens of milliseconds.
package enum MemoryLock {
    @discardableResult
    package static func lockAll() -> Bool {
        mlockall(Int32(MCL_CURRENT | MCL_FUTURE)) == 0
    }
}
