import PenKit

/// One tool on one device: what the engine keeps a tool's state by, and what prediction keeps
/// each pen's calibration by. Compared field by field, never by its hash: hashes are seeded per
/// process and two tools may share one.
public struct ToolKey: Sendable, Hashable {
    public var device: UInt32
    public var tool: ToolIdentity

    public init(device: UInt32, tool: ToolIdentity) {
        self.device = device
        self.tool = tool
    }
}
