import PenKit

/// A device as libinput sees it, named by its kernel node (eventN).
public struct LibinputDeviceInfo: Sendable, Hashable {
    public var sysname: String
    public var name: String
    public var vendor: UInt32
    public var product: UInt32
    /// libinput gave it the tablet-tool capability (it will emit tool events).
    public var isTabletTool: Bool
    /// libinput gave it the tablet-pad capability.
    public var isTabletPad: Bool

    public init(sysname: String, name: String, vendor: UInt32 = 0, product: UInt32 = 0,
                isTabletTool: Bool, isTabletPad: Bool) {
        self.sysname = sysname
        self.name = name
        self.vendor = vendor
        self.product = product
        self.isTabletTool = isTabletTool
        self.isTabletPad = isTabletPad
    }
}

/// What a libinput context reports, reduced to what penkit uses.
public enum LibinputEvent: Sendable, Hashable {
    case deviceAdded(LibinputDeviceInfo)
    case deviceRemoved(LibinputDeviceInfo)
    case tabletTool(TabletEvent, device: LibinputDeviceInfo)
    /// Any other event (pad, pointer, keyboard, ...), by libinput's event type number.
    case other(type: UInt32, device: LibinputDeviceInfo)
}

/// libinput's log priorities.
public enum LibinputLogPriority: Sendable, Hashable, Comparable {
    case debug, info, error

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int { switch self { case .debug: 0; case .info: 1; case .error: 2 } }
}

extension LibinputEvent {
    /// The tip-up events libinput made up because a device went away, by index in `events`
    /// (one drain of a context, in order).
    ///
    /// When a device is removed (unplugged, or removed from the context), libinput 1.22's
    /// tablet_suspend flushes a tool still in proximity as if it had left: a tip-up if it was in
    /// contact, button releases, a proximity-out, all stamped with the same current time, then
    /// DEVICE_REMOVED, in the same dispatch. Taken at face value, that tip-up would end an
    /// interrupted stroke as if the pen had been lifted; without it the proximity-out cancels it.
    /// Recognised as: the events of the removed device directly before its DEVICE_REMOVED that
    /// share the timestamp of a proximity-out ending that run. (A real tip-up and proximity-out in
    /// one frame followed by the device vanishing before the next dispatch would look the same:
    /// that stroke then ends cancelled too.)
    public static func removalSynthesizedTipUps(in events: [LibinputEvent]) -> Set<Int> {
        var result: Set<Int> = []
        for (k, event) in events.enumerated() {
            guard case .deviceRemoved(let removed) = event, k > 0,
                  case .tabletTool(let last, let lastDevice) = events[k - 1],
                  lastDevice.sysname == removed.sysname,
                  last.kind == .proximity, last.state == .proximityOut else { continue }
            var j = k - 1
            while j >= 0, case .tabletTool(let e, let device) = events[j],
                  device.sysname == removed.sysname, e.time == last.time {
                if e.kind == .tip, e.state == .up { result.insert(j) }
                j -= 1
            }
        }
        return result
    }
}
