import FoundationEssentials

/// Puts a stroke sent in `strokePart` lines back together (docs/protocol.md, "Long strokes"), so
/// that the app gets the one `stroke` line a client that did not ask for parts gets, byte for byte.
///
/// Parts are checked as they come: the first part of a stroke is part 0, each next one carries the
/// same `seq` and stroke id and the next index, points come before control points, the closing
/// `stroke` line names as many parts as came, and a partial stroke holds at most `maxPoints` points
/// and control points together. Anything else throws, naming what was wrong; strokes completed
/// before it were already delivered. Lines that are not parts of a stroke pass through untouched.
public struct StrokeAssembler: Sendable {
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The bound on one partial stroke (points and control points together): the engine's own
    /// bound on a stroke's samples (`EngineConfiguration.maxSamplesPerStroke`), with the control
    /// points beside them.
    public static let defaultMaxPoints = 2 << 20

    public let maxPoints: Int
    private var pending: Pending?

    private struct Pending: Sendable {
        var seq: UInt64
        var stroke: UInt64
        var nextPart: Int
        var points: [StrokeSample] = []
        var controlPoints: [StrokePoint] = []
    }

    public init(maxPoints: Int = StrokeAssembler.defaultMaxPoints) {
        precondition(maxPoints > 0, "maxPoints must be positive")
        self.maxPoints = maxPoints
    }

    /// Whether a stroke is part way through.
    public var isAssembling: Bool { pending != nil }

    /// Takes one received line (without its newline). Returns nil for a part (held), the whole
    /// `stroke` line for the line that closes a parted stroke, and `line` itself for anything else.
    public mutating func take(_ line: String) throws(Error) -> String? {
        // penkitd writes `type` first; only its two stroke types can concern a stroke in parts.
        guard line.hasPrefix("{\"type\":\"stroke") else { return line }
        if line.hasPrefix("{\"type\":\"strokePart\"") {
            try takePart(line)
            return nil
        }
        guard line.hasPrefix("{\"type\":\"stroke\""), line.contains("\"parts\":") else { return line }
        return try close(line)
    }

    private mutating func takePart(_ line: String) throws(Error) {
        let part: PartFields
        do {
            part = try JSONDecoder().decode(PartFields.self, from: Data(line.utf8))
        } catch {
            throw Error(description: "a malformed strokePart line: \(error)")
        }
        guard (part.points == nil) != (part.controlPoints == nil) else {
            throw Error(description: "strokePart \(part.part) of stroke seq \(part.seq) must carry either points or controlPoints")
        }
        if pending == nil {
            guard part.part == 0 else {
                throw Error(description: "strokePart \(part.part) of stroke seq \(part.seq) came without its parts before it")
            }
            pending = Pending(seq: part.seq, stroke: part.stroke, nextPart: 0)
        }
        guard var stroke = pending else { return }
        guard part.seq == stroke.seq, part.stroke == stroke.stroke, part.part == stroke.nextPart else {
            throw Error(description: "strokePart \(part.part) of stroke seq \(part.seq) (id \(part.stroke)) came while part "
                        + "\(stroke.nextPart) of seq \(stroke.seq) (id \(stroke.stroke)) was due")
        }
        if part.points != nil, !stroke.controlPoints.isEmpty {
            throw Error(description: "strokePart \(part.part) of stroke seq \(part.seq) carries points after control points")
        }
        let added = (part.points?.count ?? 0) + (part.controlPoints?.count ?? 0)
        guard stroke.points.count + stroke.controlPoints.count + added <= maxPoints else {
            pending = nil
            throw Error(description: "stroke seq \(part.seq) grows past \(maxPoints) points in parts; not assembled")
        }
        pending = nil  // moved out while it grows, so its arrays are not copied
        stroke.points.append(contentsOf: part.points ?? [])
        stroke.controlPoints.append(contentsOf: part.controlPoints ?? [])
        stroke.nextPart += 1
        pending = stroke
    }

    private mutating func close(_ line: String) throws(Error) -> String {
        var closing: FinalizedStroke
        let parts: Int
        do {
            let fields = try JSONDecoder().decode(ClosingFields.self, from: Data(line.utf8))
            guard case .stroke(let decoded) = fields.message else { throw Error(description: "not a stroke") }
            closing = decoded
            parts = fields.parts
        } catch {
            throw Error(description: "a malformed stroke line closing a stroke in parts: \(error)")
        }
        guard let stroke = pending else {
            throw Error(description: "stroke seq \(closing.seq) closes \(parts) parts, none of which came")
        }
        pending = nil
        guard stroke.seq == closing.seq, stroke.stroke == closing.stroke.id, stroke.nextPart == parts else {
            throw Error(description: "stroke seq \(closing.seq) (id \(closing.stroke.id)) closes \(parts) parts, but \(stroke.nextPart) "
                        + "parts of seq \(stroke.seq) (id \(stroke.stroke)) came")
        }
        guard closing.stroke.points.isEmpty, closing.stroke.path.controlPoints.isEmpty else {
            throw Error(description: "stroke seq \(closing.seq) closes parts but carries points of its own")
        }
        closing.stroke.points = stroke.points
        closing.stroke.path.controlPoints = stroke.controlPoints
        return EngineMessage.stroke(closing).jsonLine()
    }

    private struct PartFields: Decodable {
        var seq: UInt64
        var stroke: UInt64
        var part: Int
        var points: [StrokeSample]?
        var controlPoints: [StrokePoint]?
    }

    private struct ClosingFields: Decodable {
        var message: EngineMessage
        var parts: Int

        init(from decoder: any Decoder) throws {
            message = try EngineMessage(from: decoder)
            parts = try decoder.container(keyedBy: Keys.self).get("parts")
        }
    }
}
