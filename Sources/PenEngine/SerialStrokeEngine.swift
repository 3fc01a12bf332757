import PenKit
import Synchronization

/// Where the engine's time comes from between events: microseconds on the
/// same clock as the events' kernel timestamps (CLOCK_MONOTONIC for libinput).
public protocol EngineClock: Sendable {
    func nowMicroseconds() -> UInt64
}

/// A clock that only moves when told to: for tests and replays.
public final class ManualClock: EngineClock {
    private let value: Mutex<UInt64>
    public init(_ start: UInt64 = 0) { value = Mutex(start) }
    public func nowMicroseconds() -> UInt64 { value.withLock { $0 } }
    public func set(_ time: UInt64) { value.withLock { $0 = time } }
}

/// The stroke engine on one serial executor (an actor), for the daemon: every
/// input and every timeout check runs in order, one at a time, and returns the
/// messages it produced, in the order clients must see them.
public actor SerialStrokeEngine {
    private var engine: StrokeEngine
    private let clock: any EngineClock
    private var buffer: [EngineMessage] = []

    public init(configuration: EngineConfiguration = EngineConfiguration(), clock: any EngineClock,
                prediction: EnginePrediction? = nil) {
        engine = StrokeEngine(configuration: configuration, prediction: prediction)
        self.clock = clock
    }

    public func handle(_ event: TabletEvent, device: UInt32 = 0) -> [EngineMessage] {
        run { $0.handle(event, device: device, into: &$1) }
    }

    public func handlePressure(_ report: PressureReport) -> [EngineMessage] {
        let arrival = clock.nowMicroseconds()
        return run { $0.handlePressure(report, arrival: arrival, into: &$1) }
    }

    /// Lets timeouts fire up to the clock's present; call it periodically
    /// (e.g. every `updateTimeout / 4`) while waiting for input.
    public func tick() -> [EngineMessage] {
        let now = clock.nowMicroseconds()
        return run { $0.advance(to: now, into: &$1) }
    }

    public func removeDevice(_ device: UInt32) -> [EngineMessage] {
        let now = clock.nowMicroseconds()
        return run { $0.removeDevice(device, at: now, into: &$1) }
    }

    /// Shutdown: every open stroke ends cancelled, pending updates expire.
    public func shutdown() -> [EngineMessage] {
        let now = clock.nowMicroseconds()
        return run {
            $0.cancelAll(at: now, into: &$1)
            $0.flush(into: &$1)
        }
    }

    private func run(_ body: (inout StrokeEngine, inout [EngineMessage]) -> Void) -> [EngineMessage] {
        buffer.removeAll(keepingCapacity: true)
        body(&engine, &buffer)
        return buffer
    }
}
