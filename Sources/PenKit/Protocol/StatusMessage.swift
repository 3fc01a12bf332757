import FoundationEssentials

/// penkitd's answer to a `status` request (docs/protocol.md): per tablet, what the pen is doing
/// now and how fast it reports; and every setting in force, per tablet and per tool seen on it,
/// with where its value came from. Sent once, on request, so it is encoded with JSONEncoder
/// rather than by hand.
public struct StatusMessage: Sendable, Hashable, Codable, WireMessage {
    /// One setting in force. `origin` is "default", "config file PATH:LINE", "reload PATH:LINE"
    /// (read by a SIGHUP) or "flag --KEY".
    public struct Setting: Sendable, Hashable, Codable {
        public var key: String
        public var value: String
        public var origin: String

        public init(key: String, value: String, origin: String) {
            self.key = key
            self.value = value
            self.origin = origin
        }
    }

    /// A tool seen on a tablet since penkitd opened it, with the settings it gets.
    public struct Tool: Sendable, Hashable, Codable {
        public var type: ToolType
        /// 0 when the tablet reports no serial.
        public var serial: UInt64
        public var settings: [Setting]

        public init(type: ToolType, serial: UInt64, settings: [Setting]) {
            self.type = type
            self.serial = serial
            self.settings = settings
        }
    }

    public struct Device: Sendable, Hashable, Codable {
        public var device: Int
        public var name: String
        public var source: String
        /// Whether a tool is in proximity now: "in" or "out".
        public var proximity: String
        /// The tool in proximity, or the last one that was.
        public var tool: ToolType?
        public var serial: UInt64?
        /// The tip touches now.
        public var contact: Bool
        /// Tool reports (evdev frames) since the tablet was opened.
        public var reports: Int
        /// The tablet's report rate: one over the median spacing of its recent reports in
        /// proximity; nil before it has reported twice in a row.
        public var reportRateHz: Double?
        /// How long ago its last report came, on penkitd's clock; nil for an unpaced replay,
        /// whose times are the trace's.
        public var lastReportAgeMilliseconds: Double?
        /// Mapping (area, rotation, left-handed, output).
        public var settings: [Setting]
        public var tools: [Tool]
        /// The virtual tablet holds the device (EVIOCGRAB): apps get the pen only through it.
        public var grabbed: Bool

        public init(device: Int, name: String, source: String, proximity: String, tool: ToolType?, serial: UInt64?,
                    contact: Bool, reports: Int, reportRateHz: Double?, lastReportAgeMilliseconds: Double?,
                    settings: [Setting], tools: [Tool], grabbed: Bool = false) {
            self.device = device
            self.name = name
            self.source = source
            self.proximity = proximity
            self.tool = tool
            self.serial = serial
            self.contact = contact
            self.reports = reports
            self.reportRateHz = reportRateHz
            self.lastReportAgeMilliseconds = lastReportAgeMilliseconds
            self.settings = settings
            self.tools = tools
            self.grabbed = grabbed
        }
    }

    public var type = "status"
    public var version: Int
    /// The config file penkitd reads (it may not exist: then every value is a default or a flag).
    public var configFile: String?
    /// Daemon-wide settings: the virtual tablet, smoothing, the flight recorder, preferred actions, ….
    public var settings: [Setting]
    public var devices: [Device]

    public init(version: Int = PenProtocol.version, configFile: String?, settings: [Setting], devices: [Device]) {
        self.version = version
        self.configFile = configFile
        self.settings = settings
        self.devices = devices
    }

    public func write(to w: inout JSONWriter) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, number, bool or array of them: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return }
        for byte in data { w.byte(byte) }
    }
}
