import DequeModule
import PenKit

/// A second pressure stream attached to one device while the engine runs (penkitd's
/// pressure sources). Its stated latency and jitter decide how readings are matched
/// to samples and how long a sample waits for one.
package struct PressureSourceAttachment: Sendable, Hashable {
    /// Only this tool's samples expect readings (its serial); nil: every tool of the device.
    package var serial: UInt64?
    /// How long after its sample a reading typically arrives, µs.
    package var latency: UInt64
    /// How far a reading's arrival, and its timestamp, may stray from that, µs.
    package var jitter: UInt64

    package init(serial: UInt64? = nil, latency: UInt64, jitter: UInt64) {
        self.serial = serial
        self.latency = latency
        self.jitter = jitter
    }

    /// A reading matches the pending contact sample nearest its timestamp within this.
    package var matchTolerance: UInt64 { jitter }

    /// When a sample taken at `time` stops waiting: its reading is due by latency + jitter,
    /// and never sooner than the engine's own `updateTimeout`.
    func deadline(after time: UInt64, updateTimeout: UInt64) -> UInt64 {
        time.saturatingAdd(max(updateTimeout, latency.saturatingAdd(jitter)))
    }

    func covers(_ tool: ToolIdentity) -> Bool { serial == nil || serial == tool.serial }
}

extension StrokeEngine {
    /// From now on, contact samples of `device` (of the attachment's tool) carry force as an
    /// estimate that expects a reading from `handlePressure`.
    package mutating func attachPressureSource(_ attachment: PressureSourceAttachment, device: UInt32) {
        pressureSources[device] = attachment
    }

    /// The device's source is gone: samples still waiting for it expire (their estimate, the
    /// in-band pressure where the tablet has it, stays), and later samples use in-band pressure.
    package mutating func detachPressureSource(device: UInt32, at time: UInt64, into out: inout [EngineMessage]) {
        advance(to: time, into: &out)
        guard pressureSources.removeValue(forKey: device) != nil else { return }
        var kept: [PendingForce] = []
        var gone: [PendingForce] = []
        for p in pendingForce {
            if p.device == device { gone.append(p) } else { kept.append(p) }
        }
        guard !gone.isEmpty else { return }
        pendingForce = Deque(kept)
        for p in gone {
            resolve(stroke: p.stroke, index: p.index, properties: .force, measured: false, into: &out) { _ in }
        }
        publishReady(into: &out)
    }

    /// Whether `device` has an attached source.
    package func hasPressureSource(device: UInt32) -> Bool { pressureSources[device] != nil }
}
