import PenKit
import PenView

/// A page's view of penkitd: one ordinary client per page, subscribed to every channel with the
/// strokes the daemon's history still holds, its lines passed on as they arrive.
struct DaemonViewFeed: ViewFeed {
    let socketPath: String

    /// How often a clock line goes with the messages (µs).
    static let clockInterval: UInt64 = 100_000

    func run(into page: ViewPage) async throws {
        try await page.send(ViewIntro(mode: "daemon", source: socketPath).jsonLine())
        let client: PenKitClient
        do {
            client = try PenKitClient(path: socketPath)
            try client.subscribe(.all, since: 0)
        } catch {
            try await page.send(ViewConnectionError(message: "\(error)").jsonLine())
            return
        }
        defer { client.disconnect() }
        var lastClock: UInt64 = 0
        var drawing = ViewDrawing()
        do {
            for try await line in client.lines {
                var text = line.text
                if line.receivedAt &- lastClock >= Self.clockInterval {
                    lastClock = line.receivedAt
                    text = ViewClock(time: MonotonicClock.now()).jsonLine() + "\n" + text
                }
                // A finalized stroke goes on as penkitd sent it, followed by how the drawing renders it.
                if line.text.hasPrefix("{\"type\":\"stroke\""), case .engine(.stroke(let finalized)) = PenMessage(line: line.text),
                   let drawn = drawing.add(finalized.stroke) {
                    text += "\n" + drawn
                }
                try await page.send(text)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as PenKitClient.Error {
            try await page.send(ViewConnectionError(message: error.description).jsonLine())
        }
    }
}
