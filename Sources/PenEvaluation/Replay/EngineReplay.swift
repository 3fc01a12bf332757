import PenEngine
import PenInput
import PenKit

/// Runs decoded tablet events through a `StrokeEngine` as fast as possible,
/// optionally moving their pressure into a delayed second stream. The same
/// input always gives the same messages.
package struct EngineReplay {
    package struct Input: Sendable {
        package var device: UInt32
        package var event: TabletEvent
        package init(device: UInt32, event: TabletEvent) {
            self.device = device
            self.event = event
        }
    }

    package var configuration: EngineConfiguration
    package var latePressure: LatePressure?
    package var prediction: EnginePrediction?
    /// Tools the engine starts knowing to send no tilt (`StrokeEngine.learnedWithoutTilt`).
    package var toolsWithoutTilt: Set<ToolKey> = []

    package init(configuration: EngineConfiguration = EngineConfiguration(), latePressure: LatePressure? = nil,
                prediction: EnginePrediction? = nil) {
        self.configuration = configuration
        self.latePressure = latePressure
        self.prediction = prediction
    }

    /// Feeds `inputs` (ordered by time) and hands every message to `emit`, in
    /// order; at the end of the input, strokes still open are cancelled and
    /// pending updates expire.
    package func run(_ inputs: [Input], emit: (EngineMessage) -> Void) {
        var config = configuration
        if latePressure != nil { config.pressureSource = .separate(matchTolerance: .zero) }
        var engine = StrokeEngine(configuration: config, prediction: prediction)
        for key in toolsWithoutTilt { engine.learnedWithoutTilt(key) }
        var buffer: [EngineMessage] = []
        buffer.reserveCapacity(64)
        var delays = latePressure?.delays()
        var inFlight = PressureQueue()
        var last: UInt64 = 0

        func drain(_ buffer: inout [EngineMessage]) {
            for m in buffer { emit(m) }
            buffer.removeAll(keepingCapacity: true)
        }

        for input in inputs {
            let event = input.event
            while let next = inFlight.first, next.arrival <= event.time {
                inFlight.removeFirst()
                engine.handlePressure(next.report, arrival: next.arrival, into: &buffer)
            }
            engine.handle(event, device: input.device, into: &buffer)
            if delays != nil, event.tipDown, event.kind == .tip || event.kind == .axis,
               event.toolAxes.contains(.pressure) {
                let arrival = event.time &+ delays!.next()
                inFlight.insert(PressureInFlight(arrival: arrival, report: PressureReport(
                    device: input.device, time: event.time, pressure: event.axes.pressure)))
            }
            last = max(last, event.time)
            drain(&buffer)
        }
        while let next = inFlight.first {
            inFlight.removeFirst()
            engine.handlePressure(next.report, arrival: next.arrival, into: &buffer)
            last = max(last, next.arrival)
        }
        engine.cancelAll(at: last, into: &buffer)
        engine.flush(into: &buffer)
        drain(&buffer)
    }

    /// Convenience: all messages as an array.
    package func messages(_ inputs: [Input]) -> [EngineMessage] {
        var all: [EngineMessage] = []
        run(inputs) { all.append($0) }
        return all
    }
}

struct PressureInFlight {
    var arrival: UInt64
    var report: PressureReport
}

/// Reports ordered by arrival, ties in insertion order. Few are in flight at
/// once (latency / report interval), so a sorted array is enough.
struct PressureQueue {
    private var items: [PressureInFlight] = []
    private var head = 0

    var first: PressureInFlight? { head < items.count ? items[head] : nil }

    mutating func removeFirst() {
        head += 1
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    mutating func insert(_ item: PressureInFlight) {
        var i = items.count
        while i > head, items[i - 1].arrival > item.arrival { i -= 1 }
        items.insert(item, at: i)
    }
}
