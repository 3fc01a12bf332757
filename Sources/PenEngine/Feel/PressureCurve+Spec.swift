/// A pressure curve as penkitd.conf's `pressure-curve` writes it: `X1, Y1, X2, Y2` (the Bézier)
/// or `points X:Y X:Y …` (straight lines between points, a repeated X a step).
extension PressureCurve {
    package struct SpecError: Error, Sendable {
        package var message: String
    }

    package init(spec value: String) throws(SpecError) {
        let words = value.split { $0 == " " || $0 == "\t" }
        if words.first == "points" {
            var knots: [PressureKnot] = []
            for word in words.dropFirst() {
                let pair = word.split(separator: ":", omittingEmptySubsequences: false)
                guard pair.count == 2, let x = Double(pair[0]), let y = Double(pair[1]), x.isFinite, y.isFinite else {
                    throw SpecError(message: "pressure-curve points: \"\(word)\" is not X:Y")
                }
                knots.append(PressureKnot(x: x, y: y))
            }
            if let problem = PressureKnot.problem(with: knots) { throw SpecError(message: "pressure-curve points: \(problem)") }
            self = .linear
            self.knots = knots
            return
        }
        var n: [Double] = []
        for part in value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            guard let number = Double(part), number.isFinite else { throw SpecError(message: "pressure-curve: \"\(part)\" is not a number") }
            n.append(number)
        }
        guard n.count == 4, n.allSatisfy({ (0...1).contains($0) }) else {
            throw SpecError(message: "pressure-curve must be X1, Y1, X2, Y2, each from 0 to 1 (the control points of the Bézier from 0,0 to 1,1), or points X:Y X:Y …")
        }
        self.init(x1: n[0], y1: n[1], x2: n[2], y2: n[3])
    }

    /// The curve as the config file writes it (whole numbers without ".0").
    package var spec: String {
        func n(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value) }
        if knots.isEmpty { return "\(n(x1)), \(n(y1)), \(n(x2)), \(n(y2))" }
        return "points " + knots.map { "\(n($0.x)):\(n($0.y))" }.joined(separator: " ")
    }
}
