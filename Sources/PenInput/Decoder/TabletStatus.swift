import PenKit

/// libinput's enum tablet_status bits.
struct TabletStatus: OptionSet, Sendable {
    let rawValue: UInt16
    static let axesUpdated = TabletStatus(rawValue: 1 << 0)
    static let buttonsPressed = TabletStatus(rawValue: 1 << 1)
    static let buttonsDown = TabletStatus(rawValue: 1 << 2)
    static let buttonsReleased = TabletStatus(rawValue: 1 << 3)
    static let toolUpdated = TabletStatus(rawValue: 1 << 4)
    static let toolInContact = TabletStatus(rawValue: 1 << 5)
    static let toolLeavingProximity = TabletStatus(rawValue: 1 << 6)
    static let toolOutOfProximity = TabletStatus(rawValue: 1 << 7)
    static let toolEnteringProximity = TabletStatus(rawValue: 1 << 8)
    static let toolEnteringContact = TabletStatus(rawValue: 1 << 9)
    static let toolLeavingContact = TabletStatus(rawValue: 1 << 10)
    static let toolOutOfRange = TabletStatus(rawValue: 1 << 11)
}

/// struct tablet_axes in device units (point) and libinput units (the rest).
struct RawAxes: Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    var distance = 0.0
    var pressure = 0.0
    var tiltX = 0.0
    var tiltY = 0.0
    var rotation = 0.0
    var slider = 0.0
    var wheel = 0.0
    var wheelDiscrete: Int32 = 0
}

/// The tool buttons libinput's tablet code handles, as bits in ascending code order so that
/// iterating the bits yields buttons in the order libinput reports them.
enum ToolButtons {
    static let codes: [UInt16] = [
        Code.btnLeft, Code.btnRight, Code.btnMiddle, Code.btnSide, Code.btnExtra,
        Code.btnForward, Code.btnBack, Code.btnTask, Code.btnStylus, Code.btnStylus2,
    ]

    static func bit(for code: UInt16) -> UInt16? {
        codes.firstIndex(of: code).map { UInt16(1) << UInt16($0) }
    }
}

extension ToolType {
    /// libinput's enum libinput_tablet_tool_type numbering, which orders the tool-state bits.
    static let byLibinputNumber: [ToolType] = [.pen, .eraser, .brush, .pencil, .airbrush, .mouse, .lens]

    var stateBit: UInt32 { UInt32(1) << UInt32(Self.byLibinputNumber.firstIndex(of: self)! + 1) }

    init?(toolCode: UInt16) {
        switch toolCode {
        case Code.btnToolPen: self = .pen
        case Code.btnToolRubber: self = .eraser
        case Code.btnToolBrush: self = .brush
        case Code.btnToolPencil: self = .pencil
        case Code.btnToolAirbrush: self = .airbrush
        case Code.btnToolMouse: self = .mouse
        case Code.btnToolLens: self = .lens
        default: return nil
        }
    }
}
