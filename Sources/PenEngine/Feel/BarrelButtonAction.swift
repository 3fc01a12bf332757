/// What a barrel button does on the virtual tablet, per tool (`button-1`…`button-3` in a
/// `[tool …]` section; docs/virtual-tablet.md). The field's complaint: some pens' buttons are
/// wired to what their owner does not want (a Huion pen's button hard-wired as an eraser,
/// libwacom #910). penkit applies the choice once, where it writes the virtual tablet; the
/// compositor then reads the remapped button as the tablet's own.
package enum BarrelButtonAction: String, Sendable, Hashable, CaseIterable {
    /// BTN_LEFT, BTN_MIDDLE, BTN_RIGHT: a click where the pen is.
    case left, middle, right
    /// While held, the pen is the eraser (BTN_TOOL_RUBBER), as an eraser end would be.
    case eraser
    /// Nothing: the button is not written at all.
    case nothing = "none"

    /// The barrel buttons by number: BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3.
    package static let stylusCodes: [UInt16] = [0x14b, 0x14c, 0x149]

    /// The button number (1…3) of a stylus button code; nil for another code.
    package static func number(ofCode code: UInt16) -> Int? {
        stylusCodes.firstIndex(of: code).map { $0 + 1 }
    }

    /// The key written for a click action (BTN_LEFT, BTN_MIDDLE, BTN_RIGHT); nil for eraser and none.
    package var clickCode: UInt16? {
        switch self {
        case .left: 0x110
        case .middle: 0x112
        case .right: 0x111
        case .eraser, .nothing: nil
        }
    }
}
