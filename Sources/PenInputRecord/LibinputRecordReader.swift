import PenInput
import Yams

/// Reads `libinput record` files (format version 1), the YAML users attach to libinput bug reports:
///
///     version: 1
///     devices:
///     - node: /dev/input/event5
///       evdev:
///         name: "Wacom Intuos Pro M Pen"
///         id: [3, 1386, 855, 272]                  bustype, vendor, product, version
///         codes: {1: [320, 330, ...], 3: [0, 1, 24, ...]}
///         absinfo: {0: [0, 44800, 4, 0, 200], ...}   min, max, fuzz, flat, resolution
///         properties: [0]
///       events:
///       - evdev:
///         - [0, 12000, 3, 0, 15237]               sec, usec, type, code, value
///         - [0, 12000, 0, 0, 0]
///
/// Keys penkit does not use (`libinput:`, `system:`, `hid:`, `udev:`, `quirks:`, libinput events
/// recorded with --with-libinput, ...) are ignored. EV_SYN codes are implied, as in EvemuReader.
package enum LibinputRecordReader {
    /// Yams builds a tree of every node, tens of bytes per byte of YAML; this keeps that tree well
    /// inside memory while allowing hours of recording.
    package static let maximumSize = 64 << 20

    package static func parse(_ bytes: [UInt8], file: String) throws -> Trace {
        try bytes.withUnsafeBufferPointer { try parse($0, file: file) }
    }

    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Trace {
        guard bytes.count <= maximumSize else {
            throw TraceError(file: file, line: 0, message: "libinput record YAML larger than \(maximumSize >> 20) MiB, the most penkit reads")
        }
        try TraceText.validate(bytes, file: file)
        try YamlNestingGuard.check(bytes, file: file)
        var stripped = Array(bytes)
        var eventLines = RecordEventLines()
        eventLines.extract(from: &stripped)
        let text = String(decoding: stripped, as: UTF8.self)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.traceError(error, file: file, text: text)
        }
        var reader = RecordTreeReader(file: file, nodeBudget: bytes.count, eventBlocks: eventLines.blocks)
        return try reader.read(root)
    }

    private static func traceError(_ error: YamlError, file: String, text: String) -> TraceError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return TraceError(file: file, line: mark.line, message: "invalid YAML: \(detail)\(problem)")
        case let .reader(problem, offset, _, _):
            let line = offset.map { offset in text.utf8.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) } } ?? 0
            return TraceError(file: file, line: line, message: "invalid YAML: \(problem)")
        default:
            return TraceError(file: file, line: 0, message: "invalid YAML: \(error)")
        }
    }
}

/// Walks the composed YAML tree into a Trace, checking every value it keeps.
private struct RecordTreeReader {
    let file: String
    /// Nodes left to visit. Aliases let a small file name a tree that expands exponentially; no
    /// honest file has more nodes than bytes, so visiting more means the file is a YAML bomb.
    var nodeBudget: Int
    /// Event blocks read from the bytes before Yams (RecordEventLines), by their `- evdev:` line.
    let eventBlocks: [Int: [(event: EvdevEvent, line: Int)]]

    private func error(_ node: Node?, _ message: String) -> TraceError {
        TraceError(file: file, line: node?.mark?.line ?? 0, message: message)
    }

    mutating func read(_ root: Node?) throws -> Trace {
        guard let root, let top = root.mapping else {
            throw error(root, "not a libinput record file: expected a YAML mapping with `version:` and `devices:`")
        }
        guard let versionNode = top["version"] else {
            throw error(root, "no `version:` key: not a libinput record file")
        }
        guard Self.integer(versionNode) == 1 else {
            throw error(versionNode, "unsupported libinput record version `\(versionNode.string ?? "?")`: penkit reads version 1")
        }
        guard let devicesNode = top["devices"] else {
            throw error(root, "no `devices:` list")
        }
        guard let devices = devicesNode.sequence, !devices.isEmpty else {
            throw error(devicesNode, "`devices:` must be a non-empty list")
        }
        var result: [Trace.Device] = []
        for device in devices {
            result.append(try readDevice(device))
        }
        return Trace(devices: result)
    }

    private mutating func spend(_ node: Node, count: Int = 1) throws {
        nodeBudget -= count
        if nodeBudget < 0 {
            throw error(node, "YAML aliases expand to more nodes than the file has bytes: refusing a YAML bomb")
        }
    }

    private mutating func readDevice(_ node: Node) throws -> Trace.Device {
        try spend(node)
        guard let device = node.mapping else { throw error(node, "a `devices:` item must be a mapping") }
        guard let evdevNode = device["evdev"] else { throw error(node, "device has no `evdev:` description") }
        let description = try readDescription(evdevNode)
        var checker = EventStreamChecker(file: file, description: description)
        var events: [EvdevEvent] = []
        if let eventsNode = device["events"], eventsNode.null == nil {
            guard let items = eventsNode.sequence else { throw error(eventsNode, "`events:` must be a list") }
            for item in items {
                try spend(item)
                guard let frame = item.mapping else { throw error(item, "an `events:` item must be a mapping such as `evdev: [...]`") }
                guard let evdev = frame["evdev"] else { continue }  // libinput events, device notifications
                if evdev.null != nil, let line = item.mark?.line, let block = eventBlocks[line] {
                    try spend(item, count: block.count * 6)
                    for (event, line) in block {
                        try checker.check(event, line: line)
                        events.append(event)
                    }
                    continue
                }
                guard let list = evdev.sequence else { throw error(evdev, "`evdev:` must be a list of [sec, usec, type, code, value]") }
                // Charged to this item: an alias would otherwise blame the line it points to.
                try spend(item, count: list.count * 6)
                for entry in list {
                    let event = try readEvent(entry)
                    try checker.check(event, line: entry.mark?.line ?? 0)
                    events.append(event)
                }
            }
        }
        return Trace.Device(description: description, events: events)
    }

    private mutating func readDescription(_ node: Node) throws -> DeviceDescription {
        try spend(node)
        guard let evdev = node.mapping else { throw error(node, "`evdev:` must be a mapping") }
        var description = DeviceDescription(name: "")
        if let name = evdev["name"] {
            guard let text = name.scalar?.string else { throw error(name, "`name:` must be a string") }
            description.name = text
        }
        if let idNode = evdev["id"] {
            let id = try integers(idNode, count: 4, range: 0...0xFFFF, what: "`id:` [bustype, vendor, product, version]")
            (description.bustype, description.vendor, description.product, description.version) =
                (UInt16(id[0]), UInt16(id[1]), UInt16(id[2]), UInt16(id[3]))
        }
        if let codesNode = evdev["codes"] {
            guard let codes = codesNode.mapping else { throw error(codesNode, "`codes:` must map event types to code lists") }
            for (typeNode, listNode) in codes {
                try spend(typeNode)
                guard let type = Self.integer(typeNode), type >= 0, type <= Int(EventCodeLimits.maxType) else {
                    throw error(typeNode, "`codes:` key `\(typeNode.string ?? "?")` is not an event type 0...\(EventCodeLimits.maxType)")
                }
                let list = try integers(listNode, count: nil, range: 0...Int(UInt16.max), what: "`codes:` list")
                guard UInt16(type) != EventCodeLimits.syn else { continue }
                for code in list {
                    try EventStreamChecker.checkCode(type: UInt16(type), code: UInt16(code), file: file, line: listNode.mark?.line ?? 0)
                }
                if !list.isEmpty { description.codes[UInt16(type)] = Set(list.map { UInt16($0) }) }
            }
        }
        if let absNode = evdev["absinfo"], absNode.null == nil {
            guard let absinfo = absNode.mapping else { throw error(absNode, "`absinfo:` must map axis codes to [min, max, fuzz, flat, resolution]") }
            for (codeNode, valuesNode) in absinfo {
                try spend(codeNode)
                guard let code = Self.integer(codeNode), code >= 0, code <= Int(EventCodeLimits.maxAbs) else {
                    throw error(codeNode, "`absinfo:` key `\(codeNode.string ?? "?")` is not an axis code 0...\(EventCodeLimits.maxAbs) (ABS_MAX)")
                }
                let v = try integers(valuesNode, count: 5, range: Int(Int32.min)...Int(Int32.max), what: "`absinfo:` entry [min, max, fuzz, flat, resolution]")
                guard v[0] <= v[1] else {
                    throw error(valuesNode, "`absinfo:` axis \(code) has minimum \(v[0]) above maximum \(v[1])")
                }
                description.absInfo[UInt16(code)] = AbsInfo(minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]),
                                                            flat: Int32(v[3]), resolution: Int32(v[4]))
                description.codes[EventCodeLimits.abs, default: []].insert(UInt16(code))
            }
        }
        if let propsNode = evdev["properties"], propsNode.null == nil {
            let props = try integers(propsNode, count: nil, range: 0...Int(UInt16.max), what: "`properties:` list")
            if let bad = props.first(where: { $0 > Int(EventCodeLimits.maxProperty) }) {
                throw error(propsNode, "unknown property \(bad): above INPUT_PROP_MAX (\(EventCodeLimits.maxProperty))")
            }
            description.properties = Set(props.map { UInt16($0) })
        }
        // A declared axis without absinfo is blamed on the line that declares it: the EV_ABS code list.
        let absCodes = evdev["codes"]?.mapping?.first(where: { Self.integer($0.key) == Int(EventCodeLimits.abs) })?.value
        try EventStreamChecker.checkAbsInfo(of: description, file: file, line: absCodes?.mark?.line ?? node.mark?.line ?? 0)
        return description
    }

    private mutating func readEvent(_ node: Node) throws -> EvdevEvent {
        let f = try integers(node, count: 5, range: 0...Int(Int32.max), signedLast: true, charged: true,
                             what: "event [sec, usec, type, code, value]")
        guard f[1] < 1_000_000 else { throw error(node, "event usec \(f[1]) is not below 1000000") }
        guard f[2] <= Int(UInt16.max), f[3] <= Int(UInt16.max) else {
            throw error(node, "event type \(f[2]) or code \(f[3]) is not a 16-bit number")
        }
        return EvdevEvent(time: UInt64(f[0]) * 1_000_000 + UInt64(f[1]), type: UInt16(f[2]), code: UInt16(f[3]), value: Int32(f[4]))
    }

    /// A decimal integer scalar, as libinput writes every number. Not Yams' `Node.int`: that also
    /// reads YAML 1.1 base-60 forms such as `1:2:3`, and traps on overflow when they are long.
    private static func integer(_ node: Node) -> Int? {
        guard let scalar = node.scalar else { return nil }
        return Int(scalar.string)
    }

    /// A flow or block list of integers, each in `range` (the last may be any Int32 when `signedLast`).
    private mutating func integers(_ node: Node, count: Int?, range: ClosedRange<Int>, signedLast: Bool = false,
                                   charged: Bool = false, what: String) throws -> [Int] {
        if !charged { try spend(node) }
        guard let list = node.sequence else { throw error(node, "\(what) must be a list") }
        if let count, list.count != count {
            throw error(node, "\(what) needs \(count) numbers, found \(list.count)")
        }
        var values: [Int] = []
        values.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            if !charged { try spend(item) }
            let allowed = signedLast && index == list.count - 1 ? Int(Int32.min)...Int(Int32.max) : range
            guard let value = Self.integer(item), allowed.contains(value) else {
                throw error(item, "\(what): `\(item.string ?? "?")` is not an integer in \(allowed.lowerBound)...\(allowed.upperBound)")
            }
            values.append(value)
        }
        return values
    }
}
