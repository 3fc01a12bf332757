import ArgumentParser
import Foundation
import Glibc
import PenKit
import Synchronization

/// `penkit bench soak`: penkitd unpaced over a looping real trace for a long run, with every kind
/// of client at once: 8 readers, a stalled client (replaced whenever penkitd cuts it off), a client
/// that connects and leaves 100 times a second, a SIGHUP every second, and a pressure source that
/// comes and goes every second (an unpaced replay refuses sources: each one is answered and
/// closed). It reports penkitd's RSS and descriptors over time, every reader's frames and drops,
/// and stroke numbering; it fails (exit 1) on a crash, a stroke seq gap, a reader that did not end
/// with `shutdown`, or descriptors or memory that keep growing.
struct BenchSoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "penkitd under every kind of client for a long unpaced run: memory, descriptors, gaps, crashes."
    )

    @Option(help: "Frames to send to each reader (default 10^8).")
    var frames = 100_000_000

    @Option(help: "Stop after this many seconds even if fewer frames went out (0: no time bound).")
    var seconds: Double = 0

    @Option(help: "Trace looped, unpaced.")
    var trace: String = "traces/wacom-cintiq-22hdt-pen.evemu"

    @Option(help: "Seconds between samples of penkitd's memory and descriptors.")
    var sampleSeconds: Double = 5

    @Option(help: "penkitd's history-strokes: the history fills during warm-up, after which memory must stay flat.")
    var historyStrokes = 64

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    static let readers = 8

    func run() throws {
        let binary = BenchDaemon.binary(penkitd)
        // The replay starts once the readers have subscribed; the other clients come after, so
        // that none of them counts towards that, and every reader sees every frame.
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--loop", "--history-strokes", String(historyStrokes),
                                                                 "--wait-clients", String(Self.readers)])
        let pid = daemon.process.processIdentifier
        let control = SoakControl()
        let results = Mutex<[SoakReader.Result]>([])
        let done = DispatchSemaphore(value: 0)
        let subscribed = DispatchSemaphore(value: 0)
        for index in 0..<Self.readers {
            let fd = try RawFrameReaders.connect(daemon.socket, channels: [.frames, .strokes])
            Thread {
                let result = SoakReader.read(fd, control: index == 0 ? control : nil, subscribed: subscribed)
                results.withLock { $0.append(result) }
                close(fd)
                done.signal()
            }.start()
        }
        for _ in 0..<Self.readers {
            guard subscribed.wait(timeout: .now() + 60) == .success else { throw RuntimeFailure("a reader was never subscribed") }
        }
        let side = SoakSideClients(socket: daemon.socket, control: control)
        let sideDone = side.start()

        let start = MonotonicClock.now()
        var samples: [(seconds: Double, frames: Int, rss: Int, fds: Int)] = []
        var nextSample = start
        var nextHangup = start + 1_000_000
        print("soak: penkitd unpaced over \(trace), looping; \(Self.readers) readers, 1 stalled client, "
              + "1 client connecting at 100 Hz, SIGHUP every second, a pressure source every second")
        while daemon.process.isRunning {
            let now = MonotonicClock.now()
            let elapsed = Double(now - start) / 1e6
            if now >= nextHangup {
                kill(pid, SIGHUP)
                nextHangup += 1_000_000
            }
            if now >= nextSample {
                let memory = daemon.memory()
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
                samples.append((elapsed, control.frames.load(ordering: .relaxed), memory.rss, fds))
                print(String(format: "soak: %7.1f s  %11d frames  RSS %.1f MiB  %d fds", elapsed, samples.last!.frames,
                             Double(memory.rss) / 1024, fds))
                nextSample += UInt64(sampleSeconds * 1e6)
            }
            if control.frames.load(ordering: .relaxed) >= frames || (seconds > 0 && elapsed >= seconds) { break }
            usleep(10_000)
        }
        let crashed = !daemon.process.isRunning
        control.stop.store(true, ordering: .relaxed)
        sideDone.wait()
        daemon.stop()
        for _ in 0..<Self.readers { done.wait() }
        let status = daemon.process.terminationStatus
        let failures = report(results.withLock { $0 }, samples: samples, side: side, crashed: crashed, status: status,
                                   reason: daemon.process.terminationReason)
        if !failures.isEmpty {
            for failure in failures { print("soak: FAILED: \(failure)") }
            throw ExitCode(1)
        }
        print("soak: passed")
    }

    /// Prints the run's figures; returns what failed.
    func report(_ readers: [SoakReader.Result], samples: [(seconds: Double, frames: Int, rss: Int, fds: Int)],
                side: SoakSideClients, crashed: Bool, status: Int32, reason: Process.TerminationReason) -> [String] {
        // The frames that carried the first `historyStrokes` strokes, as the first reader counted them.
        let perStroke = readers.first.map { $0.strokes > 0 ? $0.frames / $0.strokes : 0 } ?? 0
        let framesToFillHistory = perStroke * historyStrokes
        var failures: [String] = []
        if crashed { failures.append("penkitd exited during the run (status \(status))") }
        if reason == .uncaughtSignal || status != 0 { failures.append("penkitd's exit: \(reason == .uncaughtSignal ? "signal" : "status") \(status)") }
        let accounted = readers.map { $0.frames + Int($0.dropped) }
        for (index, reader) in readers.enumerated() {
            print("soak: reader \(index + 1): \(reader.frames) frames, \(reader.dropped) reported dropped, \(reader.strokes) strokes "
                  + "(seq \(reader.firstSeq)…\(reader.lastSeq)), \(reader.seqGaps) seq gaps, ended with \(reader.ending)")
            if reader.seqGaps > 0 { failures.append("reader \(index + 1): \(reader.seqGaps) gaps in stroke seq") }
            if reader.ending != "shutdown" { failures.append("reader \(index + 1) ended with \(reader.ending), not shutdown") }
        }
        // Every reader should account for the same frames, received or reported dropped. A release
        // run (2026-11-27) still found a few dozen in 12 M unaccounted after the shutdown fix; the
        // cause is not found yet, so this is reported, not failed on (docs/daemon.md, "Soak").
        if let most = accounted.max(), let least = accounted.min(), most != least {
            print("soak: NOT YET EXPLAINED: frames received + reported dropped differ between readers: \(least)…\(most)")
        }
        let counts = side.counts()
        print("soak: stalled clients cut off with overflow: \(counts.stalledCutOff); connections at 100 Hz: \(counts.churned); "
              + "pressure sources answered: \(counts.sourcesAnswered) (\(counts.sourceAnswers.sorted().joined(separator: ", ")))")
        if counts.churnFailures > 0 { failures.append("\(counts.churnFailures) churning connections were refused") }
        // Flat after warm-up: from the first sample after the history filled (`historyStrokes`
        // strokes) and a quarter of the run passed (the stalled client's queue fills to
        // client-buffer-bytes before penkitd cuts it off) to the last.
        let quarter = (samples.last?.seconds ?? 0) / 4
        let filled = samples.dropFirst().firstIndex { $0.frames >= framesToFillHistory && $0.seconds >= quarter } ?? samples.count
        if samples.count - filled >= 2 {
            let warm = samples[filled]
            let last = samples[samples.count - 1]
            let peakFds = samples.dropFirst().map(\.fds).max() ?? 0
            print(String(format: "soak: after warm-up (%.0f s) RSS %.1f MiB, %d fds; at the end (%.0f s) RSS %.1f MiB, %d fds; most fds %d",
                         warm.seconds, Double(warm.rss) / 1024, warm.fds, last.seconds, Double(last.rss) / 1024, last.fds, peakFds))
            // A leak grows with the run; the churning client and the stalled one hold a few at a time.
            if last.fds > warm.fds + 4 { failures.append("descriptors grew from \(warm.fds) to \(last.fds)") }
            if Double(last.rss) > Double(warm.rss) * 1.5 + 4096 {
                failures.append("RSS grew from \(warm.rss) KiB to \(last.rss) KiB")
            }
        } else {
            print("soak: too short for a memory trend (fewer than 2 samples after the history filled)")
        }
        return failures
    }
}

/// One reading client: counts frames and reported drops, and checks that stroke seqs follow one
/// another (strokes are never dropped).
enum SoakReader {
    struct Result: Sendable {
        var frames = 0
        var dropped: UInt64 = 0
        var strokes = 0
        var firstSeq: UInt64 = 0
        var lastSeq: UInt64 = 0
        var seqGaps = 0
        var ending = "end of stream"
    }

    /// `control`: where the first reader leaves its frame count for the soak's progress.
    static func read(_ fd: Int32, control: SoakControl?, subscribed: DispatchSemaphore) -> Result {
        let frame = Array(#"{"type":"frame""#.utf8)
        let dropped = Array(#"{"type":"dropped","frames":"#.utf8)
        let stroke = Array(#"{"type":"stroke","seq":"#.utf8)
        let shutdown = Array(#"{"type":"shutdown""#.utf8)
        let subscribedLine = Array(#"{"type":"subscribed""#.utf8)
        let error = Array(#"{"type":"error""#.utf8)
        var result = Result()
        RawFrameReaders.scanLines(fd, headBytes: 96) { line, _ in
            if line.starts(with: frame) {
                result.frames += 1
                if result.frames & 1023 == 0 { control?.frames.store(result.frames, ordering: .relaxed) }
            } else if line.starts(with: dropped) {
                result.dropped += RawFrameReaders.unsigned(after: dropped.count, in: line) ?? 0
            } else if line.starts(with: stroke), let seq = RawFrameReaders.unsigned(after: stroke.count, in: line) {
                if result.strokes > 0, seq != result.lastSeq + 1 { result.seqGaps += 1 }
                if result.strokes == 0 { result.firstSeq = seq }
                result.lastSeq = seq
                result.strokes += 1
            } else if line.starts(with: subscribedLine) {
                subscribed.signal()
            } else if line.starts(with: shutdown) {
                result.ending = "shutdown"
            } else if line.starts(with: error) {
                result.ending = String(decoding: line, as: UTF8.self)
            }
            return true
        }
        return result
    }
}

/// What the soak's threads share: the stop, and the first reader's frames so far.
final class SoakControl: Sendable {
    let stop = Atomic<Bool>(false)
    let frames = Atomic<Int>(0)
}
