import Foundation
import PenEngine
import PenInput
import PenInputRecord
import PenKit

/// What a `penkit record` window shows of the state penkitd had learned before it began, and
/// where a replay of it can start (`penkit replay REPORT --check`).
extension ReplayCheck {
    /// The tools penkitd already knew to send no tilt when the window began: their first frame
    /// in the window has its azimuth estimated and expects no update of it. (The engine learns
    /// that after a whole tilt timeout without tilt, and keeps it; a tool whose tablet has no
    /// tilt at all looks the same, and knowing it changes nothing for it.) As the replay numbers
    /// devices: penkitd's ids by their place in `deviceIDs`, from 1.
    static func toolsLearnedWithoutTilt(_ recorded: [String], deviceIDs: [Int]) -> Set<ToolKey> {
        var seen: Set<ToolKey> = [], learned: Set<ToolKey> = []
        for (key, sample) in frameTools(recorded, deviceIDs: deviceIDs) where seen.insert(key).inserted {
            let estimated = sample["estimated"] as? [String] ?? [], expecting = sample["expecting"] as? [String] ?? []
            if estimated.contains("azimuth"), !expecting.contains("azimuth") { learned.insert(key) }
        }
        return learned
    }

    /// Each device's tools as the window's frames name them, in the order they first appear
    /// (by the replay's device number: penkitd's ids by their place in `deviceIDs`, from 1).
    /// libinput keeps a tool as it first met it, before the window perhaps: a pen with a serial
    /// keeps the id of its first proximity (the DTH-2242's pen later sends 0x80a, and stays
    /// 0x802), and that id picks its axes.
    static func toolsInWindow(_ recorded: [String], deviceIDs: [Int]) -> [UInt32: [ToolIdentity]] {
        var tools: [UInt32: [ToolIdentity]] = [:]
        for (key, _) in frameTools(recorded, deviceIDs: deviceIDs) {
            // As tablet_get_tool finds them: by (type, serial), or by type alone without a serial.
            let known = tools[key.device, default: []].contains { $0.type == key.tool.type && $0.serial == key.tool.serial }
            if !known { tools[key.device, default: []].append(key.tool) }
        }
        return tools
    }

    /// Each frame's tool (by the replay's device number: penkitd's ids by their place in
    /// `deviceIDs`, from 1) and its sample, in the window's order.
    private static func frameTools(_ recorded: [String], deviceIDs: [Int]) -> [(key: ToolKey, sample: [String: Any])] {
        recorded.compactMap { line in
            guard line.hasPrefix(#"{"type":"frame""#),
                  let frame = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let tool = frame["tool"] as? [String: Any], let type = (tool["type"] as? String).flatMap(ToolType.init),
                  let sample = frame["sample"] as? [String: Any], let device = frame["device"] as? Int else { return nil }
            let number = deviceIDs.firstIndex(of: device).map { $0 + 1 } ?? device
            let identity = ToolIdentity(type: type, serial: (tool["serial"] as? NSNumber)?.uint64Value ?? 0,
                                        id: (tool["id"] as? NSNumber)?.uint64Value ?? 0)
            return (ToolKey(device: UInt32(number), tool: identity), sample)
        }
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
