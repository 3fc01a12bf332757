import ArgumentParser
import Foundation
import PenInput
import PenInputRecord
import PenKit
import PenOracle

/// `penkit oracle TRACE... --out DIR`: replays traces through uinput into real libinput and
/// writes what libinput reports as fixtures (one TabletEvent JSON line per event, times on
/// the trace's clock). Runs where /dev/uinput exists: in the VM of `make oracle`.
struct OracleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oracle",
        abstract: "Record real libinput's events for traces replayed through uinput (needs /dev/uinput and udev)."
    )

    @Argument(help: "evemu or libinput record traces.")
    var traces: [String]

    @Option(help: "Directory for <trace>.jsonl, <trace>.nosmooth.jsonl and <trace>.log.")
    var out: String

    @Option(help: "libinput's system quirks directory, copied to build the no-smoothing variant.")
    var systemQuirks = "/usr/share/libinput"

    @Flag(help: "Also record with the quirk AttrTabletSmoothing=0 (<trace>.nosmooth.jsonl).")
    var nosmooth = false

    func run() throws {
        if !MemoryLock.lockAll() {
            FileHandle.standardError.write(Data("penkit oracle: mlockall failed; page faults may stall the replay\n".utf8))
        }
        var variants = [LibinputOracle.Variant(name: "")]
        if nosmooth {
            variants.append(.init(name: "nosmooth", quirksDirectory: try NoSmoothingQuirks.makeDirectory(copying: systemQuirks)))
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var failures = 0
        print("trace\tframes\tdelivered\tevents\ttimer_events(offset_ms)\ttiming_err_us(max|mean)\treadiness_s\truns")
        for path in traces {
            let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                let trace = try TraceFile.load(path: path, readers: .all)
                let result = try LibinputOracle.runChecked(trace: trace, variants: variants) { attempt, problems in
                    FileHandle.standardError.write(Data("penkit oracle: \(base): run \(attempt) not faithful, repeating: \(problems.joined(separator: "; "))\n".utf8))
                }
                if !result.problems.isEmpty {
                    failures += 1
                    FileHandle.standardError.write(Data("penkit oracle: \(base): UNFAITHFUL after \(result.attempts) runs: \(result.problems.joined(separator: "; "))\n".utf8))
                }
                try write(result, base: base)
                print(summary(result, base: base))
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("penkit oracle: \(path): \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func write(_ result: LibinputOracle.Result, base: String) throws {
        var log = result.problems.isEmpty
            ? "# faithful replay (run \(result.attempts))\n"
            : "# NOT FAITHFUL after \(result.attempts) runs:\n" + result.problems.map { "#   \($0)\n" }.joined()
        for variant in result.variants {
            let suffix = variant.variant.name.isEmpty ? "" : ".\(variant.variant.name)"
            let lines = variant.events.map { $0.jsonLine() + "\n" }.joined()
            try lines.write(toFile: "\(out)/\(base)\(suffix).jsonl", atomically: true, encoding: .utf8)
            log += "# libinput context: \(variant.variant.name.isEmpty ? "default quirks" : variant.variant.name)\n"
            log += "# device added: \(variant.deviceAdded)\(variant.device.map { " as \($0.name), tablet tool: \($0.isTabletTool), pad: \($0.isTabletPad)" } ?? "")\n"
            for (type, count) in variant.otherEvents.sorted(by: { $0.key < $1.key }) {
                log += "# other libinput events of type \(type): \(count)\n"
            }
            // Node names differ between runs; keep the log comparable.
            if let sysname = variant.device?.sysname {
                log += variant.log.map { $0.replacingOccurrences(of: sysname, with: "eventN") + "\n" }.joined()
            } else {
                log += variant.log.map { $0 + "\n" }.joined()
            }
        }
        try log.write(toFile: "\(out)/\(base).log", atomically: true, encoding: .utf8)
    }

    private func summary(_ result: LibinputOracle.Result, base: String) -> String {
        let counts = result.variants.map { "\($0.events.count)" }.joined(separator: "/")
        let offsets = result.variants.first?.timerEventOffsets ?? []
        let timer = offsets.isEmpty ? "0" : "\(offsets.count)(\(offsets.map { String(format: "%.1f", Double($0) / 1000) }.joined(separator: ",")))"
        let errors = result.timingErrors.map { abs($0) }
        let maxError = errors.max() ?? 0
        let meanError = errors.isEmpty ? 0 : Double(errors.reduce(0, +)) / Double(errors.count)
        return "\(base)\t\(result.traceFrames)\t\(result.deliveredFrames)\t\(counts)\t\(timer)\t\(maxError)|\(String(format: "%.0f", meanError))\t"
            + String(format: "%.1f", Double(result.readiness) / 1e6) + "\t\(result.attempts)"
    }
}

/// A quirks directory equal to the system's plus one file turning libinput's tablet
/// smoothing off for every tablet.
enum NoSmoothingQuirks {
    static let fileName = "99-penkit-tablet-no-smoothing.quirks"
    static let contents = """
        # penkit: turn off libinput's 4-sample smoothing of tablet x, y and tilt.
        [penkit tablets without smoothing]
        MatchUdevType=tablet
        AttrTabletSmoothing=0

        """

    static func makeDirectory(copying system: String) throws -> String {
        let fm = FileManager.default
        let dir = NSTemporaryDirectory() + "penkit-quirks-\(getpid())"
        try? fm.removeItem(atPath: dir)
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in try fm.contentsOfDirectory(atPath: system) where name.hasSuffix(".quirks") {
            try fm.copyItem(atPath: "\(system)/\(name)", toPath: "\(dir)/\(name)")
        }
        try contents.write(toFile: "\(dir)/\(fileName)", atomically: true, encoding: .utf8)
        return dir
    }
}
