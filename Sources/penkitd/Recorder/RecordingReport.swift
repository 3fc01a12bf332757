import PenInput
import PenKit

/// The flight recorder's window as the protocol's `recording…` lines (docs/protocol.md): a header
/// with each tablet's description, its events a few thousand to a line, then the digests of the
/// engine lines published (`penkit replay --check` regenerates the lines and compares digests).
enum RecordingReport {
    static func lines(_ window: FlightRecorder.Window, seconds: Int, from: UInt64, to: UInt64,
                      settings: [String: String]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var w = JSONWriter(capacity: 4096)
        w.raw("{")
        w.field("type", plain: "recording")
        w.field("version", PenProtocol.version)
        w.field("penkitd", string: PenkitVersion.string)
        w.field("seconds", seconds)
        w.field("from", from)
        w.field("to", to)
        w.key("settings")
        w.raw("{")
        for (index, (name, value)) in settings.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { w.raw(",") }
            w.string(name)
            w.raw(":")
            w.string(value)
        }
        w.raw("}")
        // Whether the window reaches back to when penkitd opened every tablet: then the engine had
        // learned nothing before it, and a replay must reproduce every prediction too.
        w.field("fromStart", window.fromStart)
        w.key("devices")
        w.raw("[")
        for (id, info, description, events, grabbed, tools) in window.devices {
            w.separateElement()
            writeDevice(id: id, info: info, description: description, events: events.count, grabbed: grabbed, to: &w)
            writeTools(tools, to: &w)
            w.raw("}")
        }
        w.raw("]}")
        out.append(w.bytes)
        var eventCount = 0
        for (id, _, _, events, _, _) in window.devices {
            eventCount += events.count
            var start = 0
            while start < events.count {
                let chunk = events[start..<min(start + Self.eventsPerLine, events.count)]
                start += chunk.count
                w.removeAll()
                w.raw("{")
                w.field("type", plain: "recording-events")
                w.field("device", id)
                w.key("events")
                w.raw("[")
                for e in chunk {
                    w.separateElement()
                    w.raw("[")
                    w.number(e.time)
                    w.raw(",")
                    w.number(e.type)
                    w.raw(",")
                    w.number(e.code)
                    w.raw(",")
                    w.number(e.value)
                    w.raw("]")
                }
                w.raw("]}")
                out.append(w.bytes)
            }
        }
        // The digests of the published engine lines, a few thousand to a line of the report:
        // [µs, type, in a stroke, digest, digest without the prediction, the counter it carries].
        var start = 0
        while start < window.digests.count {
            let chunk = window.digests[start..<min(start + Self.digestsPerLine, window.digests.count)]
            start += chunk.count
            w.removeAll()
            w.raw("{")
            w.field("type", plain: "recording-digests")
            w.key("lines")
            w.raw("[")
            for entry in chunk {
                let d = entry.digest
                w.separateElement()
                w.raw("[")
                w.number(entry.time)
                w.raw(",")
                w.string(d.kind.name)
                w.raw(d.inStroke ? ",true," : ",false,")
                w.string(LineDigest.hex(d.full))
                w.raw(",")
                w.string(LineDigest.hex(d.core))
                w.raw(",")
                w.number(d.number)
                w.raw("]")
            }
            w.raw("]}")
            out.append(w.bytes)
        }
        w.removeAll()
        w.raw("{")
        w.field("type", plain: "recording-end")
        w.field("events", eventCount)
        w.field("lines", window.digests.count)
        w.raw("}")
        out.append(w.bytes)
        return out
    }

    /// Events per `recording-events` line (about 100 KiB of JSON at most).
    static let eventsPerLine = 4_096
    /// Digests per `recording-digests` line (about 200 KiB of JSON at most).
    static let digestsPerLine = 2_048

    private static func writeDevice(id: Int, info: DeviceInfo, description: DeviceDescription?, events: Int,
                                    grabbed: Bool, to w: inout JSONWriter) {
        w.raw("{")
        w.field("id", id)
        w.field("name", string: info.name)
        w.field("node", string: info.source)
        // The virtual tablet's grab held the device in the window: its events then are missing.
        w.field("grabbed", grabbed)
        w.field("events", events)
        if let d = description {
            w.key("evdev")
            w.raw("{")
            w.field("name", string: d.name)
            w.key("id")
            w.raw("[")
            for (i, n) in [d.bustype, d.vendor, d.product, d.version].enumerated() {
                if i > 0 { w.raw(",") }
                w.number(n)
            }
            w.raw("]")
            w.key("properties")
            w.raw("[")
            for p in d.properties.sorted() {
                w.separateElement()
                w.number(p)
            }
            w.raw("]")
            // [type, [codes…]] pairs and [code, value, min, max, fuzz, flat, resolution] rows:
            // arrays, so that no key is a number.
            w.key("codes")
            w.raw("[")
            for type in d.codes.keys.sorted() {
                w.separateElement()
                w.raw("[")
                w.number(type)
                w.raw(",[")
                for code in d.codes[type]!.sorted() {
                    w.separateElement()
                    w.number(code)
                }
                w.raw("]]")
            }
            w.raw("]")
            w.key("absinfo")
            w.raw("[")
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                w.separateElement()
                w.raw("[")
                for (i, n) in [Int32(code), a.value, a.minimum, a.maximum, a.fuzz, a.flat, a.resolution].enumerated() {
                    if i > 0 { w.raw(",") }
                    w.number(n)
                }
                w.raw("]")
            }
            w.raw("]}")
        }
    }

    /// The device's tools as libinput first met them, `[type, serial, id, µs of the first
    /// proximity-in]`, and the engine's learning that a tool sends no tilt, `[µs, type, serial,
    /// id, sends none]` oldest first (µs 0: known before the oldest change kept). A replay of a
    /// window that starts after penkitd opened the tablet starts knowing what was known then.
    private static func writeTools(_ ledger: ToolLedger, to w: inout JSONWriter) {
        w.key("tools")
        w.raw("[")
        for known in ledger.tools {
            w.separateElement()
            w.raw("[")
            writeToolFields(known.tool, to: &w)
            w.raw(",")
            w.number(known.since)
            w.raw("]")
        }
        w.raw("]")
        if ledger.toolsDropped > 0 { w.field("toolsDropped", ledger.toolsDropped) }
        w.key("withoutTilt")
        w.raw("[")
        let before = ledger.withoutTiltBefore.map { ToolLedger.TiltChange(time: 0, tool: $0, withoutTilt: true) }
        for change in before + ledger.changes {
            w.separateElement()
            w.raw("[")
            w.number(change.time)
            w.raw(",")
            writeToolFields(change.tool, to: &w)
            w.raw(change.withoutTilt ? ",true]" : ",false]")
        }
        w.raw("]")
        // [µs, µs of the event before it]
        w.key("proximityOuts")
        w.raw("[")
        for out in ledger.proximityOuts { writeRow(out.time, out.after, to: &w) }
        w.raw("]")
    }

    /// A tool as the report's rows name it: `"type",serial,id`, inside a row.
    private static func writeToolFields(_ tool: ToolIdentity, to w: inout JSONWriter) {
        w.string(tool.type.rawValue)
        w.raw(",")
        w.number(tool.serial)
        w.raw(",")
        w.number(tool.id)
    }

    /// One row of numbers, `[a,b,…]`, as an array's element.
    private static func writeRow(_ numbers: UInt64..., to w: inout JSONWriter) {
        w.separateElement()
        w.raw("[")
        for (index, number) in numbers.enumerated() {
            if index > 0 { w.raw(",") }
            w.number(number)
        }
        w.raw("]")
    }
}
