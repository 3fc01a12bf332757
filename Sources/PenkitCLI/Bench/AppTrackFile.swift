import Foundation
import PenEvaluation

/// An app's pen as the desktop guest logged it (scripts/desktop/desktop-results.py), for
/// `penkit bench virtual-tablet --app-track`: one JSON object a line,
/// `{"time":µs,"x":mm,"y":mm,"pressure":0…1,"tip":bool,"proximity":n}`, in the trace's time and
/// the tablet's millimetres (the app's pixels through the inverse of the fitted output map), so
/// that the app's pen is judged against the real pen exactly as the bench judges its two paths.
enum AppTrackFile {
    private struct Line: Decodable {
        var time: UInt64
        var x: Double
        var y: Double
        var pressure: Double
        var tip: Bool
        var proximity: Int
    }

    static func load(path: String) throws -> PenTrack {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuntimeFailure("cannot read the app track \(path)")
        }
        var samples: [PenTrack.Sample] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            guard let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else {
                throw RuntimeFailure("\(path):\(index + 1): not an app track line (time, x, y, pressure, tip, proximity)")
            }
            if let last = samples.last, decoded.time < last.time {
                throw RuntimeFailure("\(path):\(index + 1): time goes back (\(decoded.time) after \(last.time))")
            }
            samples.append(PenTrack.Sample(time: decoded.time, position: SIMD2(decoded.x, decoded.y),
                                           pressure: decoded.pressure, touching: decoded.tip, proximity: decoded.proximity))
        }
        guard !samples.isEmpty else { throw RuntimeFailure("\(path): no samples") }
        return PenTrack(samples: samples)
    }
}
