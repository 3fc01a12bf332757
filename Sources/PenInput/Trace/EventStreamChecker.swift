/// The checks every trace format shares, so that a decoder can trust what a reader returns:
/// each event's code exists in the kernel's tables, each axis event has the axis's range, and
/// time never runs backwards within one device.
package struct EventStreamChecker {
    let file: String
    private var hasAbsInfo = [Bool](repeating: false, count: Int(EventCodeLimits.maxAbs) + 1)
    private var lastTime: UInt64 = 0
    private var lastLine = 0

    package init(file: String, description: DeviceDescription) {
        self.file = file
        for code in description.absInfo.keys where Int(code) < hasAbsInfo.count {
            hasAbsInfo[Int(code)] = true
        }
    }

    /// Every declared absolute axis needs its range; `line` is where the axis was declared.
    package static func checkAbsInfo(of description: DeviceDescription, file: String, line: Int) throws {
        guard let axes = description.codes[EventCodeLimits.abs] else { return }
        if let missing = axes.filter({ description.absInfo[$0] == nil }).min() {
            throw TraceError(file: file, line: line,
                             message: "EV_ABS code \(EventCodeLimits.hex(missing)) is declared but has no absinfo (min, max, fuzz, flat, resolution)")
        }
    }

    /// Rejects a code above its type's maximum in a device's declared codes.
    package static func checkCode(type: UInt16, code: UInt16, file: String, line: Int) throws {
        guard type <= EventCodeLimits.maxType else {
            throw TraceError(file: file, line: line,
                             message: "unknown event type \(EventCodeLimits.hex(type)): above EV_MAX (\(EventCodeLimits.hex(EventCodeLimits.maxType)))")
        }
        guard let max = EventCodeLimits.maxCode(type: type) else {
            throw TraceError(file: file, line: line,
                             message: "unknown code \(EventCodeLimits.hex(code)) for \(EventCodeLimits.typeName(type)), a type with no codes")
        }
        guard code <= max else {
            throw TraceError(file: file, line: line,
                             message: "unknown code \(EventCodeLimits.hex(code)) for \(EventCodeLimits.typeName(type)): above the type's maximum \(EventCodeLimits.hex(max))")
        }
    }

    package mutating func check(_ event: EvdevEvent, line: Int) throws {
        try Self.checkCode(type: event.type, code: event.code, file: file, line: line)
        if event.type == EventCodeLimits.abs && !hasAbsInfo[Int(event.code)] {
            throw TraceError(file: file, line: line,
                             message: "EV_ABS event for code \(EventCodeLimits.hex(event.code)), an axis with no absinfo in the device description")
        }
        if event.time < lastTime {
            throw TraceError(file: file, line: line,
                             message: "time goes backwards: \(Self.seconds(event.time)) s after \(Self.seconds(lastTime)) s on line \(lastLine)")
        }
        lastTime = event.time
        lastLine = line
    }

    static func seconds(_ micros: UInt64) -> String {
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
