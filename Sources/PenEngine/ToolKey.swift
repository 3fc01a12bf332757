import PenKit

/// One tool on one device: what the engine keeps a tool's state by, and what prediction keeps
/// each pen's calibration by. Compared field by field, never by its hash: hashes are seeded per
/// process and two tools may share one.
package struct ToolKey: Sendable, Hashable {
    package var device: UInt32
    package var tool: ToolIdentity

    package init(device: UInt32, tool: ToolIdentity) {
        self.device = device
        self.tool = tool
    }
}
