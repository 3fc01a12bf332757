import Glibc
import PenKit
import Synchronization

/// Where a frame's latency goes inside penkitd, for `penkit bench latency`: the
/// time from the frame's source event time to each stage, in 1 µs buckets. Off
/// unless `--latency-probe FILE` is given; recording never allocates.
final class LatencyProbe: Sendable {
    enum Stage: Int, CaseIterable, Sendable {
        /// A real-time replay's input thread is running again after sleeping until the event was due
        /// (live input: the kernel waking libinput's descriptor plays this part).
        case inputWoke
        /// The decoder has turned the frame's events into tablet events (a real-time replay only).
        case decoded
        /// The stroke engine has made the frame (its sample and predictions), before encoding.
        case engineDone
        /// The batch holding the frame has been decoded, run through the engine and encoded.
        case encoded
        /// The input thread has written the frame to every subscribed client's socket that could take it.
        case writtenToSockets

        var name: String {
            switch self {
            case .inputWoke: "input_woke"
            case .decoded: "decoded"
            case .engineDone: "engine_done"
            case .encoded: "encoded"
            case .writtenToSockets: "written_to_sockets"
            }
        }
    }

    static let bucketCount = 20_001  // 0...20 ms; the last bucket holds everything later
    private let histograms: Mutex<[Histogram]>
    let outputPath: String

    init(outputPath: String) {
        self.outputPath = outputPath
        histograms = Mutex(Stage.allCases.map { _ in Histogram() })
    }

    func record(_ stage: Stage, sourceTime: UInt64, now: UInt64 = MonotonicClock.now()) {
        let elapsed = now >= sourceTime ? now - sourceTime : 0
        histograms.withLock { $0[stage.rawValue].add(elapsed) }
    }

    /// One JSON object: per stage, the count and p50/p99/max in µs.
    func jsonLine() -> String {
        var parts: [String] = []
        for stage in Stage.allCases {
            let summary = histograms.withLock { $0[stage.rawValue].summary() }
            parts.append("\"\(stage.name)\":{\"n\":\(summary.count),\"p50_us\":\(summary.p50),"
                         + "\"p99_us\":\(summary.p99),\"max_us\":\(summary.max)}")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    func write() {
        let line = jsonLine() + "\n"
        guard let file = fopen(outputPath, "w") else { return }
        fputs(line, file)
        fclose(file)
    }

    struct Histogram {
        private var counts = [UInt32](repeating: 0, count: LatencyProbe.bucketCount)
        private var total: UInt64 = 0
        private var largest: UInt64 = 0

        mutating func add(_ microseconds: UInt64) {
            counts[Int(min(microseconds, UInt64(LatencyProbe.bucketCount - 1)))] &+= 1
            total += 1
            largest = max(largest, microseconds)
        }

        func summary() -> (count: UInt64, p50: Int, p99: Int, max: UInt64) {
            (total, percentile(0.5), percentile(0.99), largest)
        }

        /// The smallest bucket at or below which a fraction `p` of the samples lie.
        private func percentile(_ p: Double) -> Int {
            guard total > 0 else { return 0 }
            let rank = UInt64((Double(total) * p).rounded(.up))
            var seen: UInt64 = 0
            for (bucket, count) in counts.enumerated() {
                seen += UInt64(count)
                if seen >= max(rank, 1) { return bucket }
            }
            return counts.count - 1
        }
    }
}
