/// The kind of tool in proximity, named as libinput names them.
public enum ToolType: String, Sendable, Hashable, Codable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens
}

/// A physical tool: its type plus the serial and tool id the tablet reports
/// (MSC_SERIAL and ABS_MISC). Zero means the tablet did not report one.
public struct ToolIdentity: Sendable, Hashable, Codable {
    public var type: ToolType
    public var serial: UInt64
    public var id: UInt64

    public init(type: ToolType, serial: UInt64 = 0, id: UInt64 = 0) {
        self.type = type
        self.serial = serial
        self.id = id
    }
}
