import PenKit

extension DroppedMessage {
    /// One more live line of `channel` dropped.
    mutating func count(_ channel: ChannelSet) {
        if channel.contains(.updates) { updates += 1 }
        else if channel.contains(.buttons) { buttons += 1 }
        else { frames += 1 }
    }
}
