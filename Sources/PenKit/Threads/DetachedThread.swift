import CLinuxCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a named, detached thread: what Foundation's `Thread` did here, without Foundation,
/// which penkitd must not link (its ICU data alone is most of a static binary).
package enum DetachedThread {
    /// The name is cut to the 15 bytes Linux keeps (`top -H`, gdb). A thread that cannot be
    /// created is a broken process (out of memory or threads), as with `Thread.start()`.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            _ = penkit_set_thread_name(work.name)
            work.body()
            return nil
        }, work)
        guard result == 0 else {
            fatalError("cannot start thread \(name): \(String(cString: strerror(result)))")
        }
        pthread_detach(thread)
    }

    /// What crosses into the new thread through pthread_create's one pointer.
    private final class Work {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
