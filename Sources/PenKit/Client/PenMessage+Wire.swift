/// A received message as the type penkitd writes it with: writing it gives back the line's
/// fields (what this client keeps of a line, made visible), and a tool that relays or records
/// messages can write them again.
extension PenMessage {
    /// Nil for `.unknown` (a newer server's type, kept as its JSON), and for an error whose code
    /// this client does not know.
    public var wire: (any WireMessage)? {
        switch self {
        case .hello(let m): m
        case .subscribed(let m): m
        case .device(let m): m
        case .proximity(let m): m
        case .button(let m): m
        case .engine(let m): m
        case .pad(let m): m
        case .action(let m): m
        case .padMotionAction(let m): m
        case .pressureSource(let m): m
        case .dropped(let m): m
        case .status(let m): m
        case .overflow(let lastSentSeq, let message):
            ErrorMessage(code: .overflow, message: message, fatal: true, lastSentSeq: lastSentSeq)
        case .error(let code, let message, let fatal):
            ErrorMessage.Code(rawValue: code).map { ErrorMessage(code: $0, message: message, fatal: fatal) }
        case .shutdown(let m): m
        case .unknown: nil
        }
    }
}
