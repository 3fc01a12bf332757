extension Outbound {
    /// A stroke recovered from the journal: its line exactly as clients were first sent it.
    init(journaled line: [UInt8], seq: UInt64) {
        self.channel = .strokes
        self.line = line
        self.seq = seq
        self.sourceTime = 0
    }
}
