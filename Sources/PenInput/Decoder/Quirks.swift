import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PenKit

/// The tablet-relevant attributes of libinput's quirks database (its installed `*.quirks` files),
/// matched as libinput matches them: a section applies when all its Match keys match, and
/// the last matching section wins for each attribute. Sections that match on DMI or device
/// tree describe a particular machine, which a recorded trace does not identify; they are skipped.
package struct Quirks: Sendable, Equatable {
    /// AttrEventCodeDisable (libinput before 1.23): (type, code) pairs; code nil disables the whole type.
    package var disabledCodes: [(type: UInt16, code: UInt16?)] = []
    /// AttrEventCode (libinput 1.23 on): every matching section's changes, in order, so a later
    /// section may undo part of an earlier one (libinput merges these lists, not replaces them).
    package var eventCodes: [QuirkEventCodeChange] = []
    /// AttrPressureRange `upper:lower`, in device units.
    package var pressureRange: (upper: Int32, lower: Int32)?
    /// AttrTabletSmoothing.
    package var tabletSmoothing: Bool?
    /// AttrResolutionHint `XxY` in units/mm, used when the kernel reports no resolution.
    package var resolutionHint: (x: Int32, y: Int32)?

    package init() {}

    package static func == (a: Quirks, b: Quirks) -> Bool {
        a.disabledCodes.elementsEqual(b.disabledCodes, by: { $0.type == $1.type && $0.code == $1.code })
            && a.eventCodes == b.eventCodes
            && a.pressureRange?.upper == b.pressureRange?.upper && a.pressureRange?.lower == b.pressureRange?.lower
            && a.tabletSmoothing == b.tabletSmoothing
            && a.resolutionHint?.x == b.resolutionHint?.x && a.resolutionHint?.y == b.resolutionHint?.y
    }

    package static let defaultPaths = ["/usr/share/libinput", "/etc/libinput/local-overrides.quirks"]

    /// The quirks that apply to a tablet device, read from quirks files or directories of them.
    package static func forTablet(_ device: DeviceDescription, paths: [String] = defaultPaths) -> Quirks {
        var quirks = Quirks()
        for file in quirkFiles(paths) {
            guard let keyFile = KeyFile(path: file) else { continue }
            for section in keyFile.sections where matches(section, device) {
                quirks.apply(section)
            }
        }
        return quirks
    }

    static func quirkFiles(_ paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { $0.hasSuffix(".quirks") }.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        return files
    }

    static func matches(_ s: KeyFile.Section, _ d: DeviceDescription) -> Bool {
        var sawMatch = false
        for (key, value) in s.entries where key.hasPrefix("Match") {
            sawMatch = true
            switch key {
            case "MatchName": if fnmatch(value, d.name, 0) != 0 { return false }
            case "MatchBus": if busName(d.bustype) != value { return false }
            case "MatchVendor": if KeyFile.integer(value) != Int(d.vendor) { return false }
            case "MatchProduct":
                if !KeyFile.list(value).contains(where: { KeyFile.integer($0) == Int(d.product) }) { return false }
            case "MatchVersion": if KeyFile.integer(value) != Int(d.version) { return false }
            case "MatchUdevType": if value != "tablet" { return false }
            default: return false  // DMI, device tree, uniq: not knowable from a trace
            }
        }
        return sawMatch
    }

    mutating func apply(_ s: KeyFile.Section) {
        for (key, value) in s.entries {
            switch key {
            case "AttrEventCodeDisable":
                disabledCodes = KeyFile.list(value).compactMap(EventCodeNames.parse)
            case "AttrEventCode":
                if let changes = QuirkEventCodes.parse(value) {
                    eventCodes = Array((eventCodes + changes).prefix(QuirkEventCodes.maximumEntries))
                }
            case "AttrPressureRange":
                let parts = value.split(separator: ":").compactMap { Int32($0) }
                if parts.count == 2 { pressureRange = (parts[0], parts[1]) }
            case "AttrTabletSmoothing":
                if value == "1" { tabletSmoothing = true } else if value == "0" { tabletSmoothing = false }
            case "AttrResolutionHint":
                let parts = value.split(separator: "x").compactMap { Int32($0) }
                if parts.count == 2, parts[0] > 0, parts[1] > 0 { resolutionHint = (parts[0], parts[1]) }
            default: break
            }
        }
    }

    static func busName(_ bus: UInt16) -> String? {
        switch bus {
        case Code.busUSB: "usb"
        case Code.busBluetooth: "bluetooth"
        case Code.busI2C: "i2c"
        case Code.busI8042: "ps2"
        case Code.busRMI: "rmi"
        case Code.busSPI: "spi"
        default: nil
        }
    }
}
