import PenEngine
import PenKit

/// The config file's inks and device and tool sections, as the engine's configuration.
///
/// The SIGHUP queue replaces the shared settings at any time; the input thread picks them up only
/// where a change cannot split a stroke: at a proximity (mapping, feel) and when a tip goes down
/// (inks). Each check is one atomic load while nothing changed.
struct SettingsSnapshot: PipelineStage {
    private let base: EngineConfiguration
    private let inks: SharedInkChoice?
    private var inksSeen: UInt64 = .max
    private var inkChoice: InkChoice?
    private let tablets: SharedSetting<TabletSettings>?
    private var tabletsSeen: UInt64 = .max
    private var tabletSettings = TabletSettings()
    /// The devices in use, whose mappings follow the config file.
    private var devices: [Int: DeviceInfo] = [:]

    init(base: EngineConfiguration, inks: SharedInkChoice?, tablets: SharedSetting<TabletSettings>?) {
        self.base = base
        self.inks = inks
        self.tablets = tablets
        _ = refreshed()
    }

    /// The engine's configuration for the settings in force and the devices in use.
    var configuration: EngineConfiguration {
        var configuration = inkChoice?.applied(to: base) ?? base
        configuration.feels = tabletSettings.feel.byType
        configuration.serialFeels = tabletSettings.feel.bySerial
        for (id, info) in devices { configuration.mappings[UInt32(id)] = tabletSettings.mapping(for: info) }
        return configuration
    }

    /// Takes a reload's inks and tablet sections: the new configuration, or nil when neither changed.
    mutating func refreshed() -> EngineConfiguration? {
        var changed = false
        if let choice = inks?.changed(since: &inksSeen) { inkChoice = choice; changed = true }
        if let settings = tablets?.changed(since: &tabletsSeen) { tabletSettings = settings; changed = true }
        return changed ? configuration : nil
    }

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .tool(let event, _):
            // Mapping and feel change between proximities, never within a stroke; inks are chosen
            // when a stroke begins, so a reload takes effect from the next one.
            guard event.kind == .proximity || (event.kind == .tip && event.tipDown) else { return }
            if let configuration = refreshed() { call.engine.configuration = configuration }
        case .deviceRemoved(let device, _):
            devices[device] = nil
        case .pad, .tick, .shutdown, .control, .resume:
            break
        }
    }

    /// Whether the device's `[device …]` sections leave it to the virtual tablet, in the settings
    /// its mapping was taken from.
    func takesVirtualTablet(_ info: DeviceInfo) -> Bool {
        tabletSettings.devices.settings(for: info).virtualTablet
    }

    /// A device appeared: it as clients should see it (with its mapped space, when it is mapped).
    mutating func add(_ info: DeviceInfo) -> DeviceInfo {
        devices[info.id] = info
        return tabletSettings.described(info)
    }
}
