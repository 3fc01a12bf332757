/// The kind of tool in proximity, named as libinput names them.
public enum ToolType: String, Sendable, Hashable, Codable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens

    /// Hashes the case, not its raw value: a raw-value enum otherwise hashes its String, and the
    /// engine hashes a tool for every pen event (its state is kept per tool).
    public func hash(into hasher: inout Hasher) {
        let ordinal: UInt8 = switch self {
        case .pen: 0
        case .eraser: 1
        case .brush: 2
        case .pencil: 3
        case .airbrush: 4
        case .mouse: 5
        case .lens: 6
        }
        hasher.combine(ordinal)
    }
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
