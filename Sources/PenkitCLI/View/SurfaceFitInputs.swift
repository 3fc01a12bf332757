import Foundation
import PenKit

/// The inputs of `penkit surface-fit`: penkit's messages (`penkit replay --json` output), each
/// frame with its `delivered` position when it has one, and the app's own pen events.
struct SurfaceFitInputs {
    struct Message {
        var message: EngineMessage
        var delivered: (x: Double, y: Double)?
    }

    var messages: [Message] = []
    var appEvents: [AppPenEvent] = []

    static func load(frames: String, appEvents: String) throws -> SurfaceFitInputs {
        var inputs = SurfaceFitInputs()
        for (number, line) in try lines(frames).enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let type = object["type"] as? String else {
                throw RuntimeFailure("\(frames):\(number + 1): not a JSON object with a type")
            }
            guard ["frame", "began", "update", "ended", "stroke"].contains(type) else { continue }
            let message = try EngineMessage.decode(jsonLine: line)
            var delivered: (x: Double, y: Double)?
            if let d = object["delivered"] as? [String: Any], let x = (d["x"] as? NSNumber)?.doubleValue,
               let y = (d["y"] as? NSNumber)?.doubleValue { delivered = (x, y) }
            inputs.messages.append(Message(message: message, delivered: delivered))
        }
        for (number, line) in try lines(appEvents).enumerated() {
            guard let event = appEvent(line) else {
                throw RuntimeFailure("\(appEvents):\(number + 1): needs t_ms, proximity (in, move, out) and, unless out, x and y")
            }
            inputs.appEvents.append(event)
        }
        return inputs
    }

    /// `{"t_ms":…, "x":…, "y":…, "proximity":"in"|"move"|"out", "source":…}`; x and y may be absent on an out.
    static func appEvent(_ line: String) -> AppPenEvent? {
        guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let time = (o["t_ms"] as? NSNumber)?.doubleValue,
              let proximity = (o["proximity"] as? String).flatMap(AppPenEvent.Proximity.init(rawValue:)) else { return nil }
        let x = (o["x"] as? NSNumber)?.doubleValue, y = (o["y"] as? NSNumber)?.doubleValue
        guard proximity == .leaving || (x != nil && y != nil) else { return nil }
        let source = (o["source"] as? String) ?? (o["source"] as? NSNumber)?.stringValue ?? ""
        return AppPenEvent(time: time, x: x ?? 0, y: y ?? 0, proximity: proximity, source: source)
    }

    private static func lines(_ path: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw RuntimeFailure("cannot read \(path)") }
        return text.split(separator: "\n").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
    }
}
