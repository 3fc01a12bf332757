@testable import penkit
import PenKit
import PenTestSupport
import Testing

/// `penkit record`'s reader (`Recording`) against the schema's examples of the flight recorder's
/// answer (docs/protocol.schema.json: recording, recording-events, recording-digests,
/// recording-end), taken in order: every field lands where the command uses it, and the counts
/// the last line states are checked against what came. Expected values are the examples'.
@Suite struct RecordingExampleTests {
    static let types = ["recording", "recording-events", "recording-digests", "recording-end"]

    func examples() throws -> [ProtocolExample] {
        let all = try ProtocolExamples.all()
        let found = Self.types.compactMap { type in all.first { $0.type == type } }
        try #require(found.count == Self.types.count, "the schema has no example of some of \(Self.types)")
        return found
    }

    @Test func everyFieldOfTheExamplesIsRead() throws {
        let lines = try examples()
        var recording = Recording()
        var ended = false
        for example in lines { ended = try recording.take(example.line) }
        #expect(ended && recording.complete)

        let header = lines[0].value
        #expect(recording.penkitdVersion == header["penkitd"]?.string)
        #expect(Double(recording.seconds) == header["seconds"]?.double)
        #expect(Double(recording.from) == header["from"]?.double && Double(recording.to) == header["to"]?.double)
        #expect(.bool(recording.fromStart) == header["fromStart"])
        #expect(recording.settings.mapValues(JSONValue.string) == header["settings"].flatMap { if case .object(let o) = $0 { o } else { nil } })
        guard case .array(let devices)? = header["devices"] else { Issue.record("no devices"); return }
        #expect(recording.devices.count == devices.count)
        for (read, device) in zip(recording.devices, devices) {
            #expect(Double(read.id) == device["id"]?.double && read.name == device["name"]?.string)
            #expect(read.node == device["node"]?.string && .bool(read.grabbed) == device["grabbed"])
            #expect(Double(read.events.count) == device["events"]?.double)
            let evdev = try #require(device["evdev"]), description = try #require(read.description)
            #expect(description.name == evdev["name"]?.string)
            #expect([description.bustype, description.vendor, description.product, description.version].map { JSONValue.number(Double($0)) }
                    == evdev["id"].flatMap { if case .array(let a) = $0 { a } else { nil } })
            #expect(description.properties.count == Self.count(evdev["properties"]))
            #expect(description.codes.values.reduce(0) { $0 + $1.count } == Self.count(evdev["codes"], nested: true))
            #expect(description.absInfo.count == Self.count(evdev["absinfo"]))
            // What penkitd knew of the tools, row for row.
            func rows(_ value: JSONValue?) -> [[JSONValue]] {
                value.flatMap { if case .array(let a) = $0 { a.map { if case .array(let r) = $0 { r } else { [] } } } else { nil } } ?? []
            }
            let tools: [[JSONValue]] = read.tools.known.map {
                [.string($0.tool.type.rawValue), .number(Double($0.tool.serial)), .number(Double($0.tool.id)), .number(Double($0.since))]
            }
            #expect(!tools.isEmpty && tools == rows(device["tools"]))
            let tilt: [[JSONValue]] = read.tools.tiltChanges.map {
                [.number(Double($0.time)), .string($0.tool.type.rawValue), .number(Double($0.tool.serial)), .number(Double($0.tool.id)),
                 .bool($0.withoutTilt)]
            }
            #expect(!tilt.isEmpty && tilt == rows(device["withoutTilt"]))
        }
        let events = lines[1].value["events"]
        #expect(recording.devices.flatMap(\.events).map { [Double($0.time), Double($0.type), Double($0.code), Double($0.value)] }
                == events.flatMap { if case .array(let a) = $0 { a.map { row in if case .array(let r) = row { r.compactMap(\.double) } else { [] } } } else { nil } })
        let rows: [JSONValue] = lines[2].value["lines"].flatMap { if case .array(let a) = $0 { a } else { nil } } ?? []
        let expected: [[JSONValue]] = rows.map { row in if case .array(let r) = row { r } else { [] } }
        let read: [[JSONValue]] = recording.lines.map { line in
            [.number(Double(line.time)), .string(line.digest.kind.name), .bool(line.digest.inStroke),
             .string(LineDigest.hex(line.digest.full)), .string(LineDigest.hex(line.digest.core)), .number(Double(line.digest.number))]
        }
        #expect(read == expected)
    }

    /// A recording whose last line states more events than came is refused: it was cut short.
    @Test func aRecordingMissingEventsIsRefused() throws {
        let lines = try examples()
        var recording = Recording()
        _ = try recording.take(lines[0].line)
        _ = try recording.take(lines[2].line)
        #expect(throws: Recording.Malformed.self) { try recording.take(lines[3].line) }
    }

    static func count(_ value: JSONValue?, nested: Bool = false) -> Int {
        guard case .array(let items)? = value else { return -1 }
        guard nested else { return items.count }
        return items.reduce(0) { total, pair in
            if case .array(let p) = pair, p.count == 2, case .array(let codes) = p[1] { total + codes.count } else { total }
        }
    }
}
