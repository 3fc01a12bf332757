import PenEngine
import PenKit

/// `status` requests (docs/protocol.md): per tablet, the pen's proximity, contact and report
/// rate, and the settings in force for it and for each tool seen on it, with their origins.
/// Any admitted client may ask: it says nothing a client of the pen's frames cannot see.
struct StatusHandler: Sendable {
    /// What each tablet's pen is doing, kept by the input thread.
    let activity: DeviceActivity

    func handle(_ client: ClientConnection, _ state: HubState) {
        client.sendControl(Self.status(config: state.control.config, devices: state.fanOut.devicesByID,
                                       activity: activity.snapshot(), paced: activity.paced, now: MonotonicClock.now()))
    }

    static func status(config: DaemonConfig, devices: [DeviceInfo], activity: [Int: DeviceActivity.Tablet],
                       paced: Bool, now: UInt64) -> StatusMessage {
        let engine = EngineConfiguration()
        let described = devices.map { device -> StatusMessage.Device in
            let tablet = activity[device.id] ?? DeviceActivity.Tablet()
            // A paced source's times are CLOCK_MONOTONIC, as `now` is; an unpaced replay's are the trace's.
            let age = paced ? tablet.lastReport.map { Double(now - min(now, $0)) / 1000 } : nil
            let tools = tablet.toolsSeen.map {
                StatusMessage.Tool(type: $0.type, serial: $0.serial, settings: EffectiveSettings.tool($0, config: config, engine: engine))
            }
            return StatusMessage.Device(device: device.id, name: device.name, source: device.source,
                                        proximity: tablet.inProximity ? "in" : "out", tool: tablet.tool?.type,
                                        serial: tablet.tool?.serial, contact: tablet.contact, reports: tablet.reports,
                                        reportRateHz: tablet.reportRateHz, lastReportAgeMilliseconds: age,
                                        settings: EffectiveSettings.device(device, config: config), tools: tools,
                                        grabbed: tablet.grabbed)
        }
        return StatusMessage(configFile: config.configFile, settings: EffectiveSettings.daemon(config), devices: described)
    }
}
