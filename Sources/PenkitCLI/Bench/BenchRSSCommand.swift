import ArgumentParser
import Foundation
import PenKit

/// `penkit bench rss`: penkitd's resident memory after a million frames sent to a client
/// (an unpaced looping replay), and after one long stroke (a synthetic recording replayed
/// unpaced), read from /proc while penkitd still runs.
struct BenchRSSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss",
        abstract: "penkitd's resident memory after many frames and after one long stroke."
    )

    @Option(help: "Frames to send to one client before reading penkitd's memory.")
    var frames = 1_000_000

    @Option(help: "Seconds of the synthetic stroke.")
    var strokeSeconds: Double = 600

    @Option(help: "Trace looped for the frame count.")
    var trace: String = "traces/wacom-cintiq-22hdt-pen.evemu"

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    @Option(help: "penkitd's flight recorder, in seconds (default: penkitd's own, 60; 0: off).")
    var flightRecorder: Int?

    func run() throws { _ = try measureAndPrint() }

    /// Prints the figures and returns penkitd's resident memory (KiB) after the frames and after the
    /// stroke (to a client that takes whole strokes), and its peak while finalizing the stroke to a
    /// client that takes whole strokes and to one that takes parts.
    func measureAndPrint() throws -> Memory {
        let binary = BenchDaemon.binary(penkitd)

        let recorder = flightRecorder.map { ["--flight-recorder", String($0)] } ?? []
        let looping = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--loop", "--wait-clients", "1"] + recorder)
        let sent = try RawFrameReaders.measure(socket: looping.socket, readers: 1, seconds: .infinity, frames: frames)
        let afterFrames = looping.settledMemory()
        looping.stop()
        print("after \(sent.first?.frames ?? 0) frames to one client (\(trace) looped, unpaced): "
              + "penkitd RSS \(Self.size(afterFrames.rss)), peak \(Self.size(afterFrames.peak))")
        // The same again, by a penkitd started on the journal that run wrote (some 35 MiB after
        // 10⁶ frames of the Cintiq trace): what a restart (an upgrade, a reboot) costs, the
        // history it restores included.
        let journalBytes = Self.bytes(under: looping.stateDirectory + "/journal")
        let restarted = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--loop", "--wait-clients", "1"] + recorder,
                                        stateDirectory: looping.stateDirectory)
        let sentAgain = try RawFrameReaders.measure(socket: restarted.socket, readers: 1, seconds: .infinity, frames: frames)
        let afterRestart = restarted.settledMemory()
        restarted.stop()
        print("after a restart on that run's journal (\(journalBytes >> 20) MiB) and \(sentAgain.first?.frames ?? 0) frames more: "
              + "penkitd RSS \(Self.size(afterRestart.rss)), peak \(Self.size(afterRestart.peak))")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-rss-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stroke.evemu"
        try SyntheticTrace.evemu(seconds: strokeSeconds).write(toFile: path, atomically: false, encoding: .utf8)
        // The same stroke twice, each time to a fresh penkitd: to a client that takes whole
        // strokes (one line), then to one that takes parts (bounded lines).
        var settled: [(rss: Int, peak: Int)] = []
        for parts in [false, true] {
            let long = try BenchDaemon(binary: binary, arguments: ["--replay", path, "--wait-clients", "1"] + recorder)
            let stroke = try RawFrameReaders.waitForStroke(socket: long.socket, strokeParts: parts)
            let after = long.settledMemory()
            long.stop()
            settled.append(after)
            print("after one \(Int(strokeSeconds)) s stroke (\(Int(strokeSeconds * 200)) samples) to a client that takes "
                  + (parts ? "parts" : "whole strokes") + " (\(stroke.bytes / 1024) KiB of lines, the longest \(stroke.longestLine / 1024) KiB): "
                  + "penkitd RSS \(Self.size(after.rss)), peak \(Self.size(after.peak)), "
                  + String(format: "%.1f× the steady RSS after the frames; its first line %.0f ms and its last %.0f ms after subscribing (the unpaced replay included)",
                           Double(after.peak) / Double(max(afterFrames.rss, 1)), stroke.firstLineMilliseconds, stroke.lastLineMilliseconds))
        }
        return Memory(afterFrames: afterFrames.rss, afterRestart: afterRestart.rss, afterStroke: settled[0].rss,
                      strokePeakWhole: settled[0].peak, strokePeakParts: settled[1].peak)
    }

    /// The bytes of the files in `directory` (not below it).
    static func bytes(under directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
        }
    }

    /// KiB, from /proc.
    struct Memory {
        var afterFrames: Int
        var afterRestart: Int
        var afterStroke: Int
        var strokePeakWhole: Int
        var strokePeakParts: Int
    }
}

extension BenchRSSCommand {
    /// KiB as "39.4 MiB (41.3 MB)": the target is in MB, memory is counted in MiB.
    static func size(_ kibibytes: Int) -> String {
        String(format: "%.1f MiB (%.1f MB)", Double(kibibytes) / 1024, Double(kibibytes) * 1024 / 1e6)
    }
}

extension BenchDaemon {
    /// Resident memory once penkitd has settled: the client's last byte can arrive before penkitd
    /// has freed what carried it, so RSS is read every 100 ms until two readings agree (at most 5 s).
    func settledMemory() -> (rss: Int, peak: Int) {
        var last = memory()
        for _ in 0..<50 {
            usleep(100_000)
            let now = memory()
            if now.rss == last.rss { return now }
            last = now
        }
        return last
    }

    /// VmRSS and VmHWM from /proc, in KiB.
    func memory() -> (rss: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            for line in status.split(separator: "\n") where line.hasPrefix(name) {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            }
            return 0
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }
}
