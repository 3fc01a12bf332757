import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PenKit

/// The parts of libwacom's database (its installed data files) that libinput 1.22 consults for
/// tablets: which axes and wheel a stylus id has, and whether a tablet takes AES pens (which
/// turns smoothing off by default).
package struct LibwacomDatabase: Sendable {
    struct Stylus: Sendable {
        var name: String?
        var axes: Set<String>
        var isPuck: Bool
        var hasWheel: Bool
        var group: String?
    }

    struct Tablet: Sendable {
        var matches: [String]
        var styli: [String]
        var name: String?
        /// IntegratedIn: Display, System (lower-cased).
        var integration: [String] = []
    }

    var styli: [Int: Stylus] = [:]
    var tablets: [Tablet] = []

    package static let defaultDirectory = "/usr/share/libwacom"

    /// Loads `libwacom.stylus` and the `*.tablet` files; nil when the directory has no database,
    /// in which case libinput behaves as if built without libwacom.
    package init?(directory: String = LibwacomDatabase.defaultDirectory) {
        guard let stylusFile = KeyFile(path: directory + "/libwacom.stylus") else { return nil }
        for section in stylusFile.sections {
            guard let id = KeyFile.integer(section.name) else { continue }
            styli[id] = Stylus(
                name: section.value("Name"),
                axes: Set(KeyFile.list(section.value("Axes"))),
                isPuck: section.value("Type") == "Puck",
                hasWheel: section.value("HasWheel") == "true",
                group: section.value("Group"))
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files.sorted() where file.hasSuffix(".tablet") {
            guard let keyFile = KeyFile(path: directory + "/" + file),
                  let device = keyFile.sections.first(where: { $0.name == "Device" }) else { continue }
            tablets.append(Tablet(matches: KeyFile.list(device.value("DeviceMatch")).map { $0.lowercased() },
                                  styli: KeyFile.list(device.value("Styli")), name: device.value("Name"),
                                  integration: KeyFile.list(device.value("IntegratedIn")).map { $0.lowercased() }))
        }
    }

    /// Shared per process: the files do not change while penkit runs.
    package static let installed: LibwacomDatabase? = LibwacomDatabase()

    func stylus(id: UInt32) -> Stylus? { styli[Int(Int32(bitPattern: id))] }

    /// libinput's tablet_is_aes: a Wacom tablet whose supported styli include the AES pen 0x11.
    func isAES(_ d: DeviceDescription) -> Bool {
        guard d.vendor == Code.vendorWacom, let tablet = tablet(for: d) else { return false }
        for entry in tablet.styli {
            if entry.hasPrefix("@") {
                let group = String(entry.dropFirst())
                if styli[0x11]?.group == group { return true }
            } else if KeyFile.integer(entry) == 0x11 {
                return true
            }
        }
        return false
    }

    /// The database's entry for a device: by bus and ids, or bus, ids and name.
    func tablet(for d: DeviceDescription) -> Tablet? {
        guard let bus = Self.busName(d.bustype) else { return nil }
        let key = "\(bus):\(Self.hex4(d.vendor)):\(Self.hex4(d.product))"
        return tablets.first { t in t.matches.contains { $0 == key || $0 == key + ":" + d.name.lowercased() } }
    }

    /// Four lowercase hex digits at least, as libwacom's `DeviceMatch` writes ids (`%04x`).
    static func hex4(_ value: some BinaryInteger) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// libwacom's model name and integration flags for a device it knows.
    package func model(of d: DeviceDescription) -> (name: String?, integration: [String])? {
        tablet(for: d).map { ($0.name, $0.integration) }
    }

    /// The styli libwacom lists for a device it knows, as "NAME (0xID)" in id order, each `@group`
    /// entry expanded to the styli of that group; empty for a device it does not know.
    package func styli(of d: DeviceDescription) -> [String] {
        guard let tablet = tablet(for: d) else { return [] }
        var ids: Set<Int> = []
        for entry in tablet.styli {
            if entry.hasPrefix("@") {
                let group = String(entry.dropFirst())
                ids.formUnion(styli.filter { $0.value.group == group }.keys)
            } else if let id = KeyFile.integer(entry) {
                ids.insert(id)
            }
        }
        return ids.sorted().map { "\(styli[$0]?.name ?? "stylus") (0x\(String($0, radix: 16)))" }
    }

    static func busName(_ bus: UInt16) -> String? {
        switch bus {
        case Code.busUSB: "usb"
        case Code.busBluetooth: "bluetooth"
        case Code.busI2C: "i2c"
        case Code.busRS232: "serial"
        default: nil
        }
    }
}
