/// A part of penkitd that runs from start to stop: the socket loop, the input thread, journal
/// sync, reload. Its life is a private state the group drives: `start` returns once it runs,
/// `stop` asks it to stop and returns at once, `join` waits until it has stopped. A service that
/// fails while it runs calls `failed` with its error: the group then stops, and penkitd exits
/// with that error (a service that fails to start throws instead). The shape of
/// swift-service-lifecycle's `ServiceGroup`, on threads, because penkitd's input thread and
/// socket loop are threads of their own (the hot path takes no async hop).
protocol DaemonService: AnyObject, Sendable {
    var name: String { get }
    func start(failed: @escaping @Sendable (any Error) -> Void) throws
    func stop()
    func join()
}
