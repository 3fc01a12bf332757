extension StrokeEngine {
    /// Continues numbering after a previous run (penkitd's journal), so that a
    /// restarted daemon never hands out a seq or stroke id a client may already hold.
    package mutating func continueNumbering(afterSeq seq: UInt64, afterStroke strokeID: UInt64) {
        nextSeq = max(nextSeq, seq &+ 1)
        nextStrokeID = max(nextStrokeID, strokeID &+ 1)
    }
}
