import Foundation
import PenKit

// TEMPORARY: a crude evemu decoder so prediction can be developed before the readers and
// decoder branches land. Removed once TraceFile.load and TabletDecoder work.
func fallbackTabletEvents(path: String, smoothing: Bool) throws -> [TabletEvent] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var abs: [Int: (min: Double, max: Double, res: Double)] = [:]
    var events: [TabletEvent] = []
    var raw: [Int: Double] = [:]
    var inProx = false, down = false
    var tool = ToolIdentity(type: .pen)
    var hx: [Double] = [], hy: [Double] = []
    var frameTime: UInt64 = 0
    var toolChanged = false
    func mm(_ code: Int) -> Double {
        guard let a = abs[code], let v = raw[code] else { return 0 }
        return a.res > 0 ? (v - a.min) / a.res : (v - a.min) / 200
    }
    func tilt(_ code: Int) -> Double {
        guard let a = abs[code], let v = raw[code] else { return 0 }
        if a.res > 0 { return v / a.res * 180 / .pi }
        return (v - a.min) / (a.max - a.min) * 128 - 64
    }
    for line in text.split(separator: "\n") {
        let f = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(whereSeparator: { $0 == " " || $0 == "\t" })
        if f.first == "A:", f.count >= 6 {
            abs[Int(f[1], radix: 16)!] = (Double(f[2])!, Double(f[3])!, Double(f[6 < f.count ? 6 : 5])!)
            continue
        }
        guard f.first == "E:", f.count == 5, let type = Int(f[2], radix: 16), let code = Int(f[3], radix: 16),
              let value = Int(f[4]) else { continue }
        let ts = f[1].split(separator: ".")
        frameTime = UInt64(ts[0])! * 1_000_000 + UInt64(ts[1])!
        if type == 3 { raw[code] = Double(value) }
        if type == 1 && (320...327).contains(code) {
            if value == 1 { inProx = true; toolChanged = true; tool = ToolIdentity(type: code == 321 ? .eraser : code == 327 ? .lens : .pen) }
            else { inProx = false; toolChanged = true }
        }
        guard type == 0 && code == 0 else { continue }
        if toolChanged && !inProx {
            events.append(TabletEvent(kind: .proximity, time: frameTime, tool: tool, state: .proximityOut, tipDown: false, axes: .init(), toolAxes: []))
            hx.removeAll(); hy.removeAll(); down = false; toolChanged = false
            continue
        }
        guard inProx else { continue }
        hx.append(mm(0)); hy.append(mm(1))
        if hx.count > 4 { hx.removeFirst(); hy.removeFirst() }
        var axes = TabletAxes()
        axes.x = smoothing ? hx.reduce(0, +) / Double(hx.count) : hx.last!
        axes.y = smoothing ? hy.reduce(0, +) / Double(hy.count) : hy.last!
        if let p = abs[0x18], let v = raw[0x18] { axes.pressure = (v - p.min) / (p.max - p.min) }
        axes.tiltX = tilt(0x1a); axes.tiltY = tilt(0x1b)
        if !down && axes.pressure > 0.05 { down = true } else if down && axes.pressure < 0.01 { down = false }
        events.append(TabletEvent(kind: toolChanged ? .proximity : .axis, time: frameTime, tool: tool,
                                  state: toolChanged ? .proximityIn : nil, tipDown: down, axes: axes, toolAxes: []))
        toolChanged = false
    }
    return events
}
