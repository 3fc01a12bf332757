import Foundation
import PenKit

/// What `penkit settings import` would write: each penkit setting with the desktop setting it
/// came from, and each desktop setting it leaves, with why (never silently).
struct ImportPlan: Sendable, Encodable {
    /// Where a desktop keeps one setting: GSettings' schema, path and key, or kcminputrc's file,
    /// group and key. `value` is the desktop's own text of it.
    struct Source: Sendable, Encodable, Equatable {
        var schema: String?
        var path: String?
        var file: String?
        var group: String?
        var key: String
        var value: String
    }

    struct Setting: Sendable, Encodable, Equatable {
        /// The penkitd.conf section: "device 056a:00b9", "tool pen", "tool serial 0x…", or nil for daemon-wide.
        var section: String?
        var key: String
        var value: String
        var from: Source
        /// For a curve: which of the desktop's formulas it reproduces (DesktopCurveFormula).
        var formula: String?
    }

    struct Skipped: Sendable, Encodable, Equatable {
        var from: Source
        var reason: String
    }

    var desktop: String
    /// The compositor whose formulas apply, and its version where dpkg-query knows it.
    var compositor: String
    var compositorVersion: String?
    var curveFormula: String
    var devices: [String] = []
    var settings: [Setting] = []
    var skipped: [Skipped] = []
    var dryRun = true

    init(desktop: String, compositor: String, compositorVersion: String?, curveFormula: String) {
        self.desktop = desktop
        self.compositor = compositor
        self.compositorVersion = compositorVersion
        self.curveFormula = curveFormula
    }

    /// The settings request that writes them, each marked as carried over from this desktop
    /// (its origin in `penkit settings get` and `penkit doctor` says `import DESKTOP`).
    var request: SettingsRequest {
        SettingsRequest(changes: settings.map {
            SettingsRequest.Change(section: $0.section, key: $0.key, value: $0.value, imported: desktop)
        })
    }

    /// A later setting for the same section and key replaces an earlier one (a tool seen on two
    /// nodes of one tablet reads the same desktop setting twice).
    mutating func add(_ setting: Setting) {
        settings.removeAll { $0.section == setting.section && $0.key == setting.key }
        settings.append(setting)
    }

    mutating func skip(_ source: Source, _ reason: String) {
        if !skipped.contains(where: { $0.from == source }) { skipped.append(Skipped(from: source, reason: reason)) }
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A tablet penkitd has, as the import needs it: ids, name, size, and the tools seen on it.
struct ImportedTablet: Sendable {
    var device: DeviceInfo
    var tools: [StatusMessage.Tool]

    /// "056a:00b9", as GNOME's paths and penkitd.conf's [device] sections write it.
    var ids: String { String(format: "%04x:%04x", device.vendor, device.product) }
    var section: String { "device \(ids)" }

    /// penkit's `area` (mm from the sensor's top-left) for a rectangle in fractions of the sensor.
    func area(x: Double, y: Double, width: Double, height: Double) -> String? {
        guard let size = device.geometry, size.width > 0, size.height > 0 else { return nil }
        return [x * size.width, y * size.height, width * size.width, height * size.height]
            .map { DesktopCurveFormula.decimal(($0 * 1000).rounded() / 1000) }.joined(separator: ", ")
    }
}
