import Foundation
import Testing

/// The journal on a full filesystem (a small tmpfs): penkitd keeps serving frames and
/// strokes, logs that the journal is failing, never reuses a seq across a kill on the full
/// disk, and journals again once there is room.
@Suite(.serialized)
struct JournalFullDiskTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskKeepsServingAndSaysTheJournalIsFailing() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-full-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer { _ = umount(mountPoint); try? FileManager.default.removeItem(atPath: mountPoint) }
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=512k,mode=0700") == 0 else {
            throw TestFailure("cannot mount a tmpfs at \(mountPoint): \(String(cString: strerror(errno)))")
        }
        let state = mountPoint + "/state"
        let filler = mountPoint + "/filler"
        let arguments = ["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "1",
                         "--history-strokes", "100000", "--journal-fsync", "never"]

        let daemon = try DaemonProcess(arguments, stateDir: state)
        let client = try daemon.connect()
        _ = try resume(client, since: 0, channels: ["strokes", "frames"])
        var reader = StrokeReader()
        try reader.read(client, until: { $0.strokes.count >= 5 })
        try fill(filler)
        try reader.read(client, until: { _ in daemon.log.contains("journal failing") })
        let beforeFull = reader.strokes.count
        let framesBeforeFull = reader.frames
        // Still serving on the full disk: frames and strokes, numbered without a gap.
        try reader.read(client, until: { $0.strokes.count >= beforeFull + 20 && $0.frames >= framesBeforeFull + 200 })
        #expect(reader.strokes == Array(1...UInt64(reader.strokes.count)))
        let maxSeqWhileFull = reader.strokes.last ?? 0
        daemon.signal(SIGKILL)
        _ = daemon.waitForExit(timeout: 30)

        // Restarted on the still-full disk: numbering goes on past every seq handed out.
        let restarted = try DaemonProcess(arguments, stateDir: state)
        let again = try restarted.connect()
        _ = try resume(again, since: maxSeqWhileFull, channels: ["strokes", "frames"])
        var after = StrokeReader()
        try after.read(again, until: { $0.strokes.count >= 3 })
        #expect(after.strokes.first ?? 0 > maxSeqWhileFull, "seq reused after a kill on a full disk: \(after.strokes.prefix(3))")
        // Room again: the journal recovers and says so.
        try FileManager.default.removeItem(atPath: filler)
        try after.read(again, until: { _ in restarted.log.contains("journal recovered") })
        #expect(restarted.stop() == 0)
    }

    /// Writes until the filesystem is full.
    private func fill(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw TestFailure("cannot create \(path)") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw TestFailure("filling stopped with \(String(cString: strerror(errno)))") }
    }
}

/// Counts a client's frames and collects its strokes' seqs.
struct StrokeReader {
    var strokes: [UInt64] = []
    var frames = 0

    mutating func read(_ client: RawConnection, until done: (StrokeReader) -> Bool) throws {
        while !done(self) {
            guard let line = try client.readLine() else { throw TestFailure("penkitd closed the connection") }
            switch type(line) {
            case "stroke": if let s = seq(line) { strokes.append(s) }
            case "frame": frames += 1
            case "error": throw TestFailure("error from penkitd: \(line)")
            default: break
            }
        }
    }
}
