#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A counting semaphore that may be signalled above its initial count. (Not DispatchSemaphore:
/// libdispatch traps when one is released while its count is below its initial value, which a
/// client released mid-stream would be.) A pthread mutex and condition variable, as Foundation's
/// NSCondition was, without Foundation; Synchronization's Mutex cannot block a waiter.
/// Unchecked Sendable because `free` is read and written only with `mutex` held.
package final class CountingSemaphore: @unchecked Sendable {
    // Allocated, not stored properties: pthread objects must not move once initialised.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var free: Int

    package init(_ count: Int) {
        free = count
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func wait() {
        pthread_mutex_lock(mutex)
        while free == 0 { pthread_cond_wait(condition, mutex) }
        free -= 1
        pthread_mutex_unlock(mutex)
    }

    package func signal() {
        pthread_mutex_lock(mutex)
        free += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}
