/// A tablet as penkitd announces it in `hello` and `device` messages.
public struct DeviceInfo: Sendable, Hashable {
    /// penkitd's own id for the device, stable while it stays plugged in.
    public var id: Int
    public var name: String
    public var vendor: UInt16
    public var product: UInt16
    /// The event node (/dev/input/eventN), or the trace file for a replay.
    public var source: String
    /// Size, resolution and capabilities; nil where penkitd could not read them.
    public var geometry: TabletGeometry?
    /// The mapped space's size in mm and its rotation, when the config file maps this device.
    public var mapping: MappedSpace?
    /// A tablet pad's buttons, rings, strips and modes, as libinput counts them; nil for a pen's node.
    public var pad: PadCapabilities?

    public init(id: Int, name: String, vendor: UInt16, product: UInt16, source: String,
                geometry: TabletGeometry? = nil, mapping: MappedSpace? = nil, pad: PadCapabilities? = nil) {
        self.pad = pad
        self.geometry = geometry
        self.mapping = mapping
        self.id = id
        self.name = name
        self.vendor = vendor
        self.product = product
        self.source = source
    }

    /// The device object inside `hello`, `subscribed` and `device` messages.
    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("id", id)
        w.field("name", string: name)
        w.field("vendor", vendor)
        w.field("product", product)
        w.field("source", string: source)
        geometry?.writeFields(to: &w)
        if let mapping {
            w.key("mapping"); w.raw("{")
            w.field("width", mapping.width)
            w.field("height", mapping.height)
            w.field("rotation", mapping.rotation)
            w.raw("}")
        }
        if let pad { w.key("pad"); pad.write(to: &w) }
        w.raw("}")
    }
}

/// The space a mapped device's positions are in: mm from the active area's top-left after rotation.
public struct MappedSpace: Sendable, Hashable {
    public var width: Double
    public var height: Double
    /// Clockwise degrees, left-handed included.
    public var rotation: Int

    public init(width: Double, height: Double, rotation: Int) {
        self.width = width
        self.height = height
        self.rotation = rotation
    }
}

/// `{"type":"device","change":"added"|"removed","device":{…}}` on the `devices` channel.
public struct DeviceChangeMessage: Sendable, Hashable, WireMessage {
    /// `changed`: the device's description changed (a SIGHUP changed its mapping).
    public enum Change: String, Sendable { case added, removed, changed }
    public var change: Change
    public var device: DeviceInfo

    public init(change: Change, device: DeviceInfo) {
        self.change = change
        self.device = device
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "device")
        w.field("change", plain: change.rawValue)
        w.key("device"); device.write(to: &w)
        w.raw("}")
    }
}

extension JSONWriter {
    /// `"devices":[…]`, the list `hello` and `subscribed` carry.
    mutating func field(_ key: StaticString, devices: [DeviceInfo]) {
        self.key(key); raw("[")
        for device in devices { separateElement(); device.write(to: &self) }
        raw("]")
    }
}
