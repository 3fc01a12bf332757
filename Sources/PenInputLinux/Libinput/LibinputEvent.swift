import PenInput
import PenKit

/// A device as libinput sees it, named by its kernel node (eventN).
package struct LibinputDeviceInfo: Sendable, Hashable {
    package var sysname: String
    package var name: String
    package var vendor: UInt32
    package var product: UInt32
    /// libinput gave it the tablet-tool capability (it will emit tool events).
    package var isTabletTool: Bool
    /// libinput gave it the tablet-pad capability.
    package var isTabletPad: Bool
    /// A pad's buttons, rings, strips and modes (libinput's tablet-pad API); nil without the capability.
    package var pad: PadCapabilities?

    package init(sysname: String, name: String, vendor: UInt32 = 0, product: UInt32 = 0,
                isTabletTool: Bool, isTabletPad: Bool, pad: PadCapabilities? = nil) {
        self.pad = pad
        self.sysname = sysname
        self.name = name
        self.vendor = vendor
        self.product = product
        self.isTabletTool = isTabletTool
        self.isTabletPad = isTabletPad
    }
}

/// What a libinput context reports, reduced to what penkit uses.
package enum LibinputEvent: Sendable, Hashable {
    case deviceAdded(LibinputDeviceInfo)
    case deviceRemoved(LibinputDeviceInfo)
    case tabletTool(TabletEvent, device: LibinputDeviceInfo)
    /// A pad's button, ring or strip.
    case tabletPad(PadEvent, device: LibinputDeviceInfo)
    /// Any other event (pad, pointer, keyboard, ...), by libinput's event type number.
    case other(type: UInt32, device: LibinputDeviceInfo)
}

/// libinput's log priorities.
package enum LibinputLogPriority: Sendable, Hashable, Comparable {
    case debug, info, error

    package static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int { switch self { case .debug: 0; case .info: 1; case .error: 2 } }
}
