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
    /// The tip-up events that only say a device went away, by index in `events` (one drain of a
    /// context, in order).
    ///
    /// A device unplugged with the pen down reaches libinput as a proximity-out from contact in
    /// two ways: the kernel releases every pressed key (BTN_TOUCH, BTN_TOOL_PEN) as it unregisters
    /// the device, and libinput 1.22's tablet_suspend flushes a tool still in proximity when the
    /// device is removed from the context. Either way libinput sends a tip-up and a proximity-out
    /// with the same timestamp; taken at face value, the tip-up would end an interrupted stroke
    /// as if the pen had been lifted, where without it the proximity-out cancels the stroke.
    /// A tip-up counts as made up when the proximity-out of the same device and time follows it
    /// (button releases may come between) and the device is gone: its DEVICE_REMOVED follows in
    /// this drain, or `isGone(sysname)` says so (asked only for such pairs). A real lift straight
    /// out of proximity just before an unplug would look the same: that stroke ends cancelled.
    public static func removalSynthesizedTipUps(in events: [LibinputEvent],
                                                isGone: (String) -> Bool = { _ in false }) -> Set<Int> {
        var result: Set<Int> = []
        for (i, event) in events.enumerated() {
            guard case .tabletTool(let tip, let device) = event, tip.kind == .tip, tip.state == .up else { continue }
            var j = i + 1
            var proximityOut = false
            while j < events.count, case .tabletTool(let e, let d) = events[j], d.sysname == device.sysname,
                  e.time == tip.time {
                if e.kind == .proximity, e.state == .proximityOut { proximityOut = true; break }
                guard e.kind == .button else { break }
                j += 1
            }
            guard proximityOut else { continue }
            let removedHere = events[(j + 1)...].contains {
                if case .deviceRemoved(let removed) = $0 { return removed.sysname == device.sysname }
                return false
            }
            if removedHere || isGone(device.sysname) { result.insert(i) }
        }
        return result
    }
}
