import PenKit

/// Stand-in for PenEngine's stroke assembly until the `engine` branch lands:
/// tip down … tip up makes a stroke, finalized at tip up, with the message
/// shapes of docs/protocol.md (frame, began, ended, stroke). Only what the
/// daemon needs to be exercised end to end; no estimation or prediction.
struct StrokeMessages {
    private struct Open {
        var id: UInt64
        var tool: ToolIdentity
        var points: [String] = []
    }

    private var open: [Int: Open] = [:]
    private var nextStrokeID: UInt64 = 1
    private var nextSeq: UInt64 = 1

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout [Outbound]) {
        if event.kind == .tip, event.state == .down, open[device] == nil {
            open[device] = Open(id: nextStrokeID, tool: event.tool)
            out.append(Outbound(.frames, "{\"type\":\"began\",\"device\":\(device),\"stroke\":\(nextStrokeID),\"t\":\(event.time)}"))
            nextStrokeID += 1
        }
        if event.kind == .tip || event.kind == .axis || (event.kind == .proximity && event.state == .proximityIn) {
            let point = "{\"t\":\(event.time),\"x\":\(event.axes.x),\"y\":\(event.axes.y),\"force\":\(event.axes.pressure)}"
            let strokeField = open[device].map { "\($0.id)" } ?? "null"
            var frame = "{\"type\":\"frame\",\"device\":\(device),\"stroke\":\(strokeField),\"tip\":\"\(event.tipDown ? "down" : "up")\",\"sample\":"
            frame += point
            if !event.tipDown, event.toolAxes.contains(.distance) { frame += ",\"distance\":\(event.axes.distance)" }
            frame += "}"
            out.append(Outbound(.frames, frame))
            if event.tipDown || (event.kind == .tip && event.state == .up) { open[device]?.points.append(point) }
        }
        if (event.kind == .tip && event.state == .up) || (event.kind == .proximity && event.state == .proximityOut) {
            finish(device: device, time: event.time, cancelled: event.kind == .proximity, into: &out)
        }
    }

    mutating func cancelOpen(at time: UInt64, device: Int?, into out: inout [Outbound]) {
        for key in open.keys.sorted() where device == nil || device == key {
            finish(device: key, time: time, cancelled: true, into: &out)
        }
    }

    private mutating func finish(device: Int, time: UInt64, cancelled: Bool, into out: inout [Outbound]) {
        guard let stroke = open.removeValue(forKey: device) else { return }
        out.append(Outbound(.frames, "{\"type\":\"ended\",\"device\":\(device),\"stroke\":\(stroke.id),\"t\":\(time),\"cancelled\":\(cancelled)}"))
        var json = "{\"type\":\"stroke\",\"seq\":\(nextSeq),\"stroke\":{\"id\":\(stroke.id),\"device\":\(device)"
        json += ",\"tool\":{\"type\":\"\(stroke.tool.type.rawValue)\",\"serial\":\(stroke.tool.serial),\"id\":\(stroke.tool.id)}"
        json += ",\"cancelled\":\(cancelled),\"points\":[" + stroke.points.joined(separator: ",") + "]}}"
        out.append(Outbound(.strokes, json, seq: nextSeq))
        nextSeq += 1
    }
}
