/// Constants of the penkitd socket protocol (docs/protocol.md).
public enum PenProtocol {
    /// The protocol version this build speaks; `hello` announces it, `subscribe` must name it.
    public static let version = 1
    /// Longest client line the server accepts, newline excluded.
    public static let maxLineBytes = 64 * 1024
}

/// What a client can subscribe to. Live channels may drop messages for a slow
/// client (counted and reported); `strokes`, `devices` and `actions` never drop silently.
public enum SubscriptionChannel: String, Sendable, Hashable, CaseIterable, Codable {
    /// frame (with predictions), began, ended, proximity.
    case frames
    /// update: late-arriving values for samples already sent.
    case updates
    /// stroke: finalized strokes with sequence numbers.
    case strokes
    /// button presses and releases of tools.
    case buttons
    /// device added / removed.
    case devices
    /// action: a stylus or pad button press mapped to the user's preferred action (docs/daemon.md).
    case actions

    /// Whether messages of this channel may be dropped for a client that cannot keep up.
    public var isLive: Bool {
        switch self {
        case .frames, .updates, .buttons: true
        case .strokes, .devices, .actions: false
        }
    }
}

/// A set of channels as a bit mask, so the server's per-message check costs nothing.
public struct ChannelSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ channel: SubscriptionChannel) {
        switch channel {
        case .frames: self = .frames
        case .updates: self = .updates
        case .strokes: self = .strokes
        case .buttons: self = .buttons
        case .devices: self = .devices
        case .actions: self = .actions
        }
    }
    public static let frames = ChannelSet(rawValue: 1 << 0)
    public static let updates = ChannelSet(rawValue: 1 << 1)
    public static let strokes = ChannelSet(rawValue: 1 << 2)
    public static let buttons = ChannelSet(rawValue: 1 << 3)
    public static let devices = ChannelSet(rawValue: 1 << 4)
    public static let actions = ChannelSet(rawValue: 1 << 5)
    public static let all: ChannelSet = [.frames, .updates, .strokes, .buttons, .devices, .actions]

    public var channels: [SubscriptionChannel] {
        SubscriptionChannel.allCases.filter { contains(ChannelSet($0)) }
    }
}
