import Foundation
import PenEngine
import PenInput
import PenInputRecord
import PenKit

/// What a `penkit record` window shows of the state penkitd had learned before it began, and
/// where a replay of it can start (`penkit replay REPORT --check`).
extension ReplayCheck {
    /// Each device's tools that libinput had met before `start`, in the order it met them, as
    /// the report's header says (by the replay's device number: penkitd's ids by their place in
    /// `deviceIDs`, from 1). libinput keeps a tool as it first met it, before the window perhaps:
    /// a pen with a serial keeps the id of its first proximity (the DTH-2242's pen later sends
    /// 0x80a, and stays 0x802), and that id picks its axes.
    static func knownTools(_ report: Report, before start: UInt64) -> [UInt32: [ToolIdentity]] {
        var tools: [UInt32: [ToolIdentity]] = [:]
        for (index, id) in report.deviceIDs.enumerated() {
            let known = report.tools[id]?.tools(before: start) ?? []
            if !known.isEmpty { tools[UInt32(index + 1)] = known }
        }
        return tools
    }

    /// Each device's proximity-outs as the live libinput gave them, by the replay's device number:
    /// the decoder makes the one libinput's timer made late, after the next report was queued.
    static func proximityOuts(_ report: Report) -> [UInt32: [LiveProximityOut]] {
        var outs: [UInt32: [LiveProximityOut]] = [:]
        for (index, id) in report.deviceIDs.enumerated() {
            if let recorded = report.tools[id]?.proximityOuts, !recorded.isEmpty { outs[UInt32(index + 1)] = recorded }
        }
        return outs
    }

    /// The tools penkitd's engine knew at `start` to send no tilt (it learns that after a whole
    /// tilt timeout without it, and keeps it), as the report's header says, by the replay's
    /// device number.
    static func toolsWithoutTilt(_ report: Report, before start: UInt64) -> Set<ToolKey> {
        var keys: Set<ToolKey> = []
        for (index, id) in report.deviceIDs.enumerated() {
            for tool in report.tools[id]?.withoutTilt(before: start) ?? [] {
                keys.insert(ToolKey(device: UInt32(index + 1), tool: tool))
            }
        }
        return keys
    }

    /// The time of the first frame in any device of the report that brings a tool into proximity
    /// (a BTN_TOOL_* press) and carries every name the device's pen gives itself in the window:
    /// its id (ABS_MISC) and serial (MSC_SERIAL) where the pen sends them, nothing more where it
    /// sends neither (most non-Wacom pens).
    ///
    /// The replay starts there, as a decoder opened at that moment would: before it, penkitd's
    /// decoder knew the pen from events the window does not hold (a tool already in proximity
    /// when the window began), and a pen that names itself must be named at the start, or the
    /// replay would take it for another tool.
    static func firstKnownProximity(_ trace: Trace) -> UInt64? {
        var best: UInt64?
        for device in trace.devices {
            let sendsID = device.events.contains { $0.type == 3 && $0.code == 0x28 }
            let sendsSerial = device.events.contains { $0.type == 4 && $0.code == 0 }
            var frame: [EvdevEvent] = []
            for event in device.events {
                frame.append(event)
                guard event.type == 0, event.code == 0 else { continue }
                let toolIn = frame.contains { $0.type == 1 && (0x140...0x147).contains($0.code) && $0.value == 1 }
                let named = (!sendsID || frame.contains { $0.type == 3 && $0.code == 0x28 })
                    && (!sendsSerial || frame.contains { $0.type == 4 && $0.code == 0 })
                if toolIn, named {
                    best = min(best ?? .max, frame[0].time)
                    break
                }
                frame.removeAll(keepingCapacity: true)
            }
        }
        return best
    }
}
