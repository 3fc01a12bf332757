/// What a tablet pad has, as libinput's tablet-pad API counts it: `"pad":{"buttons":N,"rings":N,"strips":N,"modes":[M…]}`
/// in a device object. Present only for a device libinput gives the tablet-pad capability.
public struct PadCapabilities: Sendable, Hashable, Decodable {
    /// Buttons, numbered 0 ..< buttons as in `pad` messages.
    public var buttons: Int
    public var rings: Int
    public var strips: Int
    /// For each mode group (by index), how many modes it has.
    public var modes: [Int]

    public init(buttons: Int, rings: Int, strips: Int, modes: [Int]) {
        self.buttons = buttons
        self.rings = rings
        self.strips = strips
        self.modes = modes
    }

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("buttons", buttons)
        w.field("rings", rings)
        w.field("strips", strips)
        w.key("modes")
        w.raw("[")
        for count in modes {
            w.separateElement()
            w.number(count)
        }
        w.raw("]")
        w.raw("}")
    }
}
