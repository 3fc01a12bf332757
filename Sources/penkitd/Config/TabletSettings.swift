import PenEngine
import PenKit

/// The config file's per-tablet and per-tool sections, as the input thread takes them:
/// replaced as a whole on SIGHUP.
struct TabletSettings: Sendable, Equatable {
    var devices = DeviceSections()
    var feel = ToolFeelChoice()
}

extension DaemonConfig {
    var tabletSettings: TabletSettings { TabletSettings(devices: devices, feel: feel) }
}

extension TabletSettings {
    /// Where a device's positions go under these settings; nil when they stay sensor millimetres.
    func mapping(for device: DeviceInfo) -> DeviceMapping? {
        devices.settings(for: device).mapping(sensorWidth: device.geometry?.width ?? 0,
                                              sensorHeight: device.geometry?.height ?? 0)
    }

    /// The device as clients should see it: with its mapped space, when it is mapped.
    func described(_ device: DeviceInfo) -> DeviceInfo {
        var device = device
        device.mapping = mapping(for: device).map { MappedSpace(width: $0.width, height: $0.height, rotation: $0.rotation) }
        return device
    }
}
