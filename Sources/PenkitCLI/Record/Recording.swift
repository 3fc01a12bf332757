import Foundation
import PenInput
import PenKit

/// What penkitd's flight recorder sent for a `record` request (docs/protocol.md), gathered:
/// the header, each tablet's events and the lines penkitd published in the window.
struct Recording {
    struct Device {
        var id: Int
        var name: String
        var node: String
        var grabbed: Bool
        var description: DeviceDescription?
        /// How many events the header says follow for this device (checked at `recording-end`).
        var announcedEvents = 0
        var events: [EvdevEvent] = []
        /// What penkitd knew of its tools, and when.
        var tools = RecordedTools()
    }

    var penkitdVersion = ""
    var seconds = 0
    var from: UInt64 = 0
    var to: UInt64 = 0
    var settings: [String: String] = [:]
    var devices: [Device] = []
    /// The digests of the engine lines penkitd published, oldest first.
    var lines: [RecordedLine] = []
    var complete = false
    /// The window reaches back to when penkitd opened every tablet.
    var fromStart = false
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes one line of penkitd's answer; true once `recording-end` came.
    mutating func take(_ line: String) throws -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let type = object["type"] as? String else { return false }
        switch type {
        case "recording":
            penkitdVersion = object["penkitd"] as? String ?? ""
            seconds = object["seconds"] as? Int ?? 0
            from = (object["from"] as? NSNumber)?.uint64Value ?? 0
            to = (object["to"] as? NSNumber)?.uint64Value ?? 0
            settings = object["settings"] as? [String: String] ?? [:]
            fromStart = object["fromStart"] as? Bool ?? false
            for device in object["devices"] as? [[String: Any]] ?? [] {
                guard let tools = RecordedTools(protocolDevice: device) else {
                    throw Malformed(description: "a device's tools or withoutTilt rows are malformed: \(device["id"] ?? "?")")
                }
                devices.append(Device(id: device["id"] as? Int ?? 0, name: device["name"] as? String ?? "",
                                      node: device["node"] as? String ?? "", grabbed: device["grabbed"] as? Bool ?? false,
                                      description: (device["evdev"] as? [String: Any]).flatMap(Self.description),
                                      announcedEvents: device["events"] as? Int ?? 0, tools: tools))
            }
        case "recording-events":
            guard let id = object["device"] as? Int, let index = devices.firstIndex(where: { $0.id == id }),
                  let events = object["events"] as? [[NSNumber]] else { throw Malformed(description: "a recording-events line without its device or events") }
            for e in events where e.count == 4 {
                devices[index].events.append(EvdevEvent(time: e[0].uint64Value, type: e[1].uint16Value,
                                                        code: e[2].uint16Value, value: e[3].int32Value))
            }
        case "recording-digests":
            guard let rows = object["lines"] as? [[Any]] else { throw Malformed(description: "a recording-digests line without its lines") }
            for row in rows {
                guard let line = RecordedLine(row: row) else { throw Malformed(description: "a recording-digests row that is not [µs, type, bool, hex, hex, n]: \(row)") }
                lines.append(line)
            }
        case "recording-end":
            // The counts say whether every line came: a recording cut short is refused, not replayed.
            let events = devices.reduce(0) { $0 + $1.events.count }
            for device in devices where device.events.count != device.announcedEvents {
                throw Malformed(description: "device \(device.id): the header announced \(device.announcedEvents) events, \(device.events.count) came")
            }
            guard object["events"] as? Int == events, object["lines"] as? Int == lines.count else {
                throw Malformed(description: "the recording ended saying \(object["events"] ?? "?") events and \(object["lines"] ?? "?") "
                                + "lines; \(events) and \(lines.count) came")
            }
            complete = true
            return true
        case "error":
            throw Malformed(description: "penkitd: \(object["code"] as? String ?? "error"): \(object["message"] as? String ?? "")")
        default:
            break
        }
        return false
    }

    /// [µs, type, in a stroke, digest, digest without the prediction, counter], as penkitd sends
    /// them and the report keeps them.
    struct RecordedLine: Equatable {
        var time: UInt64
        var digest: LineDigest

        init(time: UInt64, digest: LineDigest) {
            self.time = time
            self.digest = digest
        }

        init?(row: [Any]) {
            guard row.count == 6, let time = (row[0] as? NSNumber)?.uint64Value ?? (row[0] as? Int).map(UInt64.init),
                  let kind = (row[1] as? String).flatMap(LineDigest.Kind.init(name:)), let inStroke = row[2] as? Bool,
                  let full = (row[3] as? String).flatMap({ UInt64($0, radix: 16) }),
                  let core = (row[4] as? String).flatMap({ UInt64($0, radix: 16) }),
                  let number = (row[5] as? NSNumber)?.uint64Value ?? (row[5] as? Int).map(UInt64.init) else { return nil }
            self.init(time: time, digest: LineDigest(kind: kind, inStroke: inStroke, full: full, core: core, number: number))
        }

        /// The row as the report's YAML flow sequence.
        var yaml: String {
            "[\(time), \(digest.kind.name), \(digest.inStroke), \"\(LineDigest.hex(digest.full))\", \"\(LineDigest.hex(digest.core))\", \(digest.number)]"
        }
    }

    static func description(_ evdev: [String: Any]) -> DeviceDescription? {
        guard let name = evdev["name"] as? String, let id = evdev["id"] as? [Int], id.count == 4 else { return nil }
        var d = DeviceDescription(name: name, bustype: UInt16(clamping: id[0]), vendor: UInt16(clamping: id[1]),
                                  product: UInt16(clamping: id[2]), version: UInt16(clamping: id[3]))
        d.properties = Set((evdev["properties"] as? [Int] ?? []).map { UInt16(clamping: $0) })
        for pair in evdev["codes"] as? [[Any]] ?? [] where pair.count == 2 {
            guard let type = pair[0] as? Int, let codes = pair[1] as? [Int] else { continue }
            d.codes[UInt16(clamping: type)] = Set(codes.map { UInt16(clamping: $0) })
        }
        for row in evdev["absinfo"] as? [[Int]] ?? [] where row.count == 7 {
            d.absInfo[UInt16(clamping: row[0])] = AbsInfo(value: Int32(clamping: row[1]), minimum: Int32(clamping: row[2]),
                                                          maximum: Int32(clamping: row[3]), fuzz: Int32(clamping: row[4]),
                                                          flat: Int32(clamping: row[5]), resolution: Int32(clamping: row[6]))
        }
        return d
    }
}
