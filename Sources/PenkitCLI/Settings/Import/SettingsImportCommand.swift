import ArgumentParser
import Foundation
import PenKit

/// `penkit settings import --from gnome|kde`: the desktop's settings for each tablet penkitd has,
/// written as penkit's through the `settings` request (kept over penkitd.conf, applied by a reload).
struct SettingsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Take the desktop's tablet settings (GNOME or KDE) as penkit's: curve, range, area, rotation, left-handedness.",
        discussion: """
            With the virtual tablet on, the desktop's settings for the real tablet no longer apply; this \
            carries them over. GNOME's are read through gsettings, KDE's from kcminputrc. Each curve is \
            written in the form that gives the compositor's own force (mutter's formula by its version, \
            KWin's Bézier). Settings with no penkit equivalent are listed, never dropped silently. \
            docs/daemon.md, "Importing the desktop's settings".
            """)

    enum Desktop: String, ExpressibleByArgument, CaseIterable { case gnome, kde }

    @Option(help: "The desktop whose settings to read: gnome or kde.")
    var from: Desktop

    @Option(help: "Only penkitd's device ID (as `penkit status` numbers it).")
    var device: Int?

    @Flag(help: "Show what would be written; write nothing.")
    var dryRun = false

    @Flag(help: "One JSON object: each setting, its value and where it came from, and what is skipped and why.")
    var json = false

    @Option(help: "mutter's version, when dpkg-query does not know it (its curve formula changed in 46).")
    var mutterVersion: String?

    @OptionGroup var daemon: DaemonClientOptions

    func run() async throws {
        let client = try daemon.connect()
        let tablets = try await Self.tablets(client).filter { device == nil || $0.device.id == device }
        if let device, tablets.isEmpty {
            FileHandle.standardError.write(Data("penkit: penkitd has no device \(device)\n".utf8))
            throw ExitCode(1)
        }
        var plan = try makePlan(tablets)
        plan.dryRun = dryRun
        if json {
            print(try plan.json())
        } else {
            printPlan(plan)
        }
        guard !dryRun else { return }
        if plan.settings.isEmpty {
            if !json { print("nothing to import") }
            return
        }
        try await SettingsChange.send(plan.request, through: client, quiet: json)
    }

    func makePlan(_ tablets: [ImportedTablet]) throws -> ImportPlan {
        let environment = ProcessInfo.processInfo.environment
        switch from {
        case .gnome:
            guard let reader = GSettingsReader() else {
                FileHandle.standardError.write(Data("penkit: no gsettings (Debian: apt install libglib2.0-bin)\n".utf8))
                throw ExitCode(1)
            }
            guard reader.keys(GnomeImport.tabletSchema) != nil else {
                FileHandle.standardError.write(Data("penkit: the schema \(GnomeImport.tabletSchema) is not installed (Debian: apt install gsettings-desktop-schemas)\n".utf8))
                throw ExitCode(1)
            }
            let version = mutterVersion ?? DesktopVersions.mutter()
            // Without a version, the formula of the mutter current GNOME releases ship.
            let formula = version.map(DesktopCurveFormula.mutter(version:)) ?? .mutterTable
            var plan = ImportPlan(desktop: "gnome", compositor: "mutter", compositorVersion: version,
                                  curveFormula: formula.definition + (version == nil ? " (mutter's version unknown: give --mutter-version)" : ""))
            let gnome = GnomeImport(reader: reader, formula: formula)
            for tablet in tablets {
                plan.devices.append("\(tablet.device.id) \(tablet.ids) \(tablet.device.name)")
                gnome.add(tablet, to: &plan)
            }
            return plan
        case .kde:
            var plan = ImportPlan(desktop: "kde", compositor: "kwin", compositorVersion: DesktopVersions.kwin(),
                                  curveFormula: DesktopCurveFormula.kwinBezier.definition)
            guard let kde = KdeImport(environment: environment) else {
                FileHandle.standardError.write(Data("penkit: no kcminputrc in $XDG_CONFIG_HOME or ~/.config: KDE has no tablet settings to import\n".utf8))
                throw ExitCode(1)
            }
            for tablet in tablets {
                plan.devices.append("\(tablet.device.id) \(tablet.ids) \(tablet.device.name)")
                kde.add(tablet, to: &plan)
            }
            return plan
        }
    }

    func printPlan(_ plan: ImportPlan) {
        print("# \(plan.desktop)'s settings for \(plan.devices.isEmpty ? "no tablet" : plan.devices.joined(separator: "; "))")
        print("# curves: \(plan.curveFormula)")
        for setting in plan.settings {
            let value = setting.value.count > 60 ? String(setting.value.prefix(57)) + "…" : setting.value
            print("\(setting.section.map { "[\($0)] " } ?? "")\(setting.key) = \(value)  # from \(Self.describe(setting.from))")
        }
        for skipped in plan.skipped {
            print("skipped \(Self.describe(skipped.from)): \(skipped.reason)")
        }
    }

    static func describe(_ source: ImportPlan.Source) -> String {
        if let schema = source.schema { return "\(schema):\(source.path ?? "") \(source.key) = \(source.value)" }
        return "\(source.file ?? "") \(source.group ?? "") \(source.key)=\(source.value)"
    }

    /// Each tablet in penkitd's `hello` with the tools its `status` has seen on it.
    static func tablets(_ client: PenKitClient) async throws -> [ImportedTablet] {
        var devices: [DeviceInfo] = []
        try client.send(StatusRequest().jsonLine())
        for try await message in client.messages {
            switch message {
            case .hello(let hello): devices = hello.devices
            case .status(let status):
                return devices.map { device in
                    ImportedTablet(device: device, tools: status.devices.first { $0.device == device.id }?.tools ?? [])
                }
            case .error(let code, let text, _): throw ServerError(code: code, message: text)
            default: continue
            }
        }
        throw ServerError(code: "closed", message: "penkitd closed the connection before answering status")
    }
}
