import PenKit

/// A stroke that had begun when penkitd was killed never got its `stroke` message. After
/// recovery it is published as a cancelled stroke, with its id, tool and ink from the
/// `began` line and no samples (the frames were live messages, not journaled).
enum OpenStrokeCancellation {
    /// The `stroke` line (newline included), or nil if `began` is not a began line.
    static func line(began: [UInt8], seq: UInt64) -> [UInt8]? {
        guard let text = String(validating: began, as: UTF8.self),
              case .began(let b)? = try? EngineMessage.decode(jsonLine: text) else { return nil }
        let stroke = Stroke(id: b.stroke, tool: b.tool, ink: b.ink, cancelled: true, samples: [])
        return Array(EngineMessage.stroke(FinalizedStroke(seq: seq, stroke: stroke)).jsonLine().utf8) + [UInt8(ascii: "\n")]
    }
}
