/// What every Trace a reader returns promises, stated once so fuzz targets and tests can check it
/// independently of the code that enforces it while reading.
package enum TraceInvariants {
    /// A description of the first broken promise, or nil when the trace keeps them all.
    package static func firstViolation(in trace: Trace) -> String? {
        for (index, device) in trace.devices.enumerated() {
            let d = device.description
            for (type, codes) in d.codes {
                guard let max = EventCodeLimits.maxCode(type: type) else { return "device \(index): codes for type \(type), which has none" }
                if let bad = codes.first(where: { $0 > max }) { return "device \(index): code \(bad) above type \(type)'s maximum" }
            }
            if let bad = d.properties.first(where: { $0 > EventCodeLimits.maxProperty }) { return "device \(index): property \(bad)" }
            for axis in d.codes[EventCodeLimits.abs] ?? [] {
                guard let info = d.absInfo[axis] else { return "device \(index): axis \(axis) without absinfo" }
                if info.minimum > info.maximum { return "device \(index): axis \(axis) min above max" }
            }
            if d.absInfo.keys.contains(where: { !(d.codes[EventCodeLimits.abs]?.contains($0) ?? false) }) {
                return "device \(index): absinfo for an undeclared axis"
            }
            var last: UInt64 = 0
            for event in device.events {
                if event.time < last { return "device \(index): time goes backwards at \(event.time)" }
                last = event.time
                guard let max = EventCodeLimits.maxCode(type: event.type), event.code <= max else {
                    return "device \(index): event type \(event.type) code \(event.code) out of range"
                }
                if event.type == EventCodeLimits.abs && d.absInfo[event.code] == nil {
                    return "device \(index): EV_ABS event for axis \(event.code) without absinfo"
                }
            }
        }
        return nil
    }
}
