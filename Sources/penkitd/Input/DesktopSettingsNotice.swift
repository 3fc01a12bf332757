import Glibc
import Logging
import PenInput

/// When the virtual tablet takes a real tablet, the desktop's settings for it (GNOME's or KDE's
/// curve, area, left-handedness, buttons) no longer apply: the compositor reads the virtual one.
/// This finds whether the user penkitd runs as has such settings, in the files GNOME and KDE keep
/// them in, and says how to carry them over (`penkit settings import`). A system penkitd has no
/// desktop user's files: the check then finds nothing, and `penkit doctor` (run by the user) says it.
enum DesktopSettingsNotice {
    /// The desktops whose files name `real`: "gnome", "kde".
    static func desktops(naming real: DeviceDescription, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> [String] {
        let home = environment("HOME") ?? ""
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? (home.isEmpty ? "" : home + "/.config")
        guard !config.isEmpty else { return [] }
        let ids = hex4(real.vendor) + ":" + hex4(real.product)
        var out: [String] = []
        // GSettings' keyfile backend names the path as a group; dconf's database holds it as a path component.
        if contains(config + "/glib-2.0/settings/keyfile", "peripherals/tablets/\(ids)]")
            || contains(config + "/glib-2.0/settings/keyfile", "peripherals/stylus/default-\(ids)]")
            || contains(config + "/dconf/user", ids) {
            out.append("gnome")
        }
        if contains(config + "/kcminputrc", "[Libinput][\(real.vendor)][\(real.product)][\(real.name)]") { out.append("kde") }
        return out
    }

    static func warn(_ real: DeviceDescription, device id: Int, logger: Logger) {
        for desktop in desktops(naming: real) {
            logger.warning("the desktop's settings for this tablet no longer apply: the compositor now reads the virtual tablet; take them over with `penkit settings import --from \(desktop)`",
                           metadata: ["device": "\(id)", "desktop": "\(desktop)", "name": "\(real.name)"])
        }
    }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether the file at `path` holds `needle`; false for no file. Reads at most 4 MiB: these
    /// are small settings files, and a bigger one is not worth holding up a tablet's arrival.
    static func contains(_ path: String, _ needle: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < 4 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        let target = Array(needle.utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return false }
        for start in 0...(bytes.count - target.count) where bytes[start] == target[0] {
            if bytes[start..<(start + target.count)].elementsEqual(target) { return true }
        }
        return false
    }
}
