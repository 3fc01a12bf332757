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

/// A tool's barrel buttons 1…3 and what each does (nil: as pressed). Three fields rather than a
/// dictionary: a pen's feel is laid over its type's on every report, and this allocates nothing.
package struct BarrelButtons: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    private var actions: (BarrelButtonAction?, BarrelButtonAction?, BarrelButtonAction?) = (nil, nil, nil)

    package init() {}

    package init(dictionaryLiteral elements: (Int, BarrelButtonAction)...) {
        for (number, action) in elements { self[number] = action }
    }

    /// Button `number` (1…3); nil for another number.
    package subscript(number: Int) -> BarrelButtonAction? {
        get {
            switch number {
            case 1: actions.0
            case 2: actions.1
            case 3: actions.2
            default: nil
            }
        }
        set {
            switch number {
            case 1: actions.0 = newValue
            case 2: actions.1 = newValue
            case 3: actions.2 = newValue
            default: break
            }
        }
    }

    /// These buttons with `other`'s where it sets them.
    package func overlaid(by other: BarrelButtons) -> BarrelButtons {
        var result = self
        for number in 1...3 { if let action = other[number] { result[number] = action } }
        return result
    }

    package static func == (a: BarrelButtons, b: BarrelButtons) -> Bool {
        (1...3).allSatisfy { a[$0] == b[$0] }
    }

    package func hash(into hasher: inout Hasher) {
        for number in 1...3 { hasher.combine(self[number]) }
    }
}
