import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// `penkit pressure-feed TRACE`: the reference pressure bridge. It declares itself penkitd's
/// pressure source for a device and sends the trace's in-band pressure as readings, each
/// stamped with its sample's time and sent that long plus the delay after it.
///
/// Putting the trace on penkitd's clock: the k-th contact sample of the trace is the k-th
/// contact frame penkitd sends for the device (a reader connection follows them), so each
/// reading carries exactly its sample's CLOCK_MONOTONIC time, whether penkitd replays the
/// trace (`--replay --realtime`) or libinput reads it from a uinput device. Readings go out in
/// sample order, as a real channel delivers them: one whose delay would pass the previous
/// reading's send time waits for it.
struct PressureFeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressure-feed",
        abstract: "Feed a trace's pressure to penkitd as a second, late source (the reference bridge)."
    )

    @Argument(help: "The trace whose pressure to send (evemu or libinput record YAML).")
    var trace: String

    @OptionGroup var daemon: DaemonClientOptions

    @Option(help: "Delay after each sample, MS[±JITTER] milliseconds (jitter uniform, seeded as replay --late-pressure).")
    var delay: String = "0"

    @Option(help: "The latency to state to penkitd, milliseconds (default: the delay's): how long a sample waits for its reading.")
    var statedLatency: Double?

    @Option(help: "penkitd's device id to feed (default: the first device penkitd announces).")
    var device: Int?

    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing, as the trace is decoded (pressure is never smoothed).")
    var smoothing = true

    func run() async throws {
        guard let late = LatePressure(parsing: delay) else {
            throw ValidationError("--delay expects MS or MS±JITTER in milliseconds (e.g. 20±10), got \(delay)")
        }
        let pressures = try decodeForEngine(trace, options: DecoderOptions(smoothing: smoothing ? nil : false))
            .filter { $0.event.tipDown && ($0.event.kind == .tip || $0.event.kind == .axis) && $0.event.toolAxes.contains(.pressure) }
            .map(\.event.axes.pressure)
        guard !pressures.isEmpty else { throw RuntimeFailure("\(trace): no contact samples with pressure") }

        // Every contact frame counts (a dropped one would shift the trace onto the wrong samples):
        // a deep buffer, so that a busy machine delays this reader rather than making penkitd drop for it.
        let reader = try daemon.connect(bufferLines: 1 << 16)
        var target = device
        var feed: PressureFeed?
        /// Attaches to the device asked for (else the first listed) once a list names it.
        func attachIfListed(_ devices: [DeviceInfo]) async throws {
            target = target ?? devices.first?.id
            if let id = target, devices.contains(where: { $0.id == id }) {
                feed = try await attach(device: id, late: late, pressures: pressures)
            }
        }
        for try await line in reader.lines {
            // Frames are most of the stream: scanned, not decoded, so that the feed keeps up
            // with the pen even where decoding is slow (FrameTimeScan says why). Only lines it
            // does not recognise are decoded.
            let scan = FrameTimeScan(line: line.text)
            if scan == .otherFrame { continue }
            let message = scan == .unrecognised ? PenMessage(line: line.text) : nil
            var contactTime: UInt64?
            if case .contactExpectingForce(let time) = scan { contactTime = time }
            if case .engine(.frame(let frame)) = message, frame.stroke != nil, frame.sample.expectingUpdates.contains(.force) {
                contactTime = frame.sample.time
            }
            if let contactTime {
                guard let feed else { continue }
                if try await feed.sampleSeen(at: contactTime) {
                    try await feed.finish()
                    reader.disconnect()
                    return
                }
                continue
            }
            guard let message else { continue }
            switch message {
            case .hello(let hello):
                let devices = hello.devices
                // Attached before following frames: a replay waiting for clients (--wait-clients)
                // then starts only once every contact frame will expect this source.
                try await attachIfListed(devices)
                try reader.subscribe([.frames, .devices])
            case .subscribed(let subscribed) where feed == nil:
                let devices = subscribed.devices
                // A device added after this connection's `hello` but before its subscription took
                // effect is in neither `hello` nor a `device` message: `subscribed` lists it.
                guard let devices else {
                    throw RuntimeFailure("penkitd's `subscribed` lists no devices: it is older than this penkit")
                }
                try await attachIfListed(devices)
            case .device(let change) where change.change == .added && feed == nil:
                target = target ?? change.device.id
                if change.device.id == target { feed = try await attach(device: change.device.id, late: late, pressures: pressures) }
            case .pressureSource(let source) where source.state == .attached:
                // penkitd's word, in this stream's order, of how many contact frames the device had
                // sent before its samples began to expect readings: a feed attached after the
                // recording began starts at that sample, not at the first.
                guard let feed, source.device == target, let sent = source.contactFrames, sent >= 0 else { continue }
                try await feed.startAt(sample: sent)
            case .device(let change) where change.change == .removed && change.device.id == target:
                // No contact frame is left to feed: the replay ended or the tablet went away.
                try await feed?.finish(deviceGone: true)
                reader.disconnect()
                return
            case .dropped:
                throw RuntimeFailure("penkitd dropped frames for pressure-feed: the trace and penkitd's samples no longer line up")
            case .error(let code, let text, let fatal):
                FileHandle.standardError.write(Data("penkitd: \(code): \(text)\n".utf8))
                if fatal { throw ServerError(code: code, message: text) }
            case .shutdown:
                try await feed?.finish()
                return
            default:
                break
            }
        }
        try await feed?.finish()
    }

    private func attach(device: Int, late: LatePressure, pressures: [Double]) async throws -> PressureFeed {
        let source = try daemon.connect()
        let latency = statedLatency.map { UInt64(max(0, min($0, 10_000)) * 1000) } ?? late.latency
        try source.send(PressureSourceRequest(device: device, latency: latency, jitter: late.jitter).jsonLine())
        let feed = PressureFeed(source: source, pressures: pressures, delays: late.delays())
        try await feed.attached()
        FileHandle.standardError.write(Data("pressure-feed: attached to device \(device), \(pressures.count) readings to send\n".utf8))
        return feed
    }
}

/// Sends readings in order at their due times, from its own task, so that reading frames
/// never waits on a send.
actor PressureFeed {
    private let source: PenKitClient
    private let pressures: [Double]
    private var delays: LatePressure.Delays
    private var next = 0
    /// Readings left out because penkitd had sent their frames before the source attached.
    private var skipped = 0
    private var lastDue: UInt64 = 0
    private let queue: AsyncStream<(due: UInt64, sampleTime: UInt64, line: String)>.Continuation
    /// Ends with the longest time a reading went out after its sample (µs).
    private let sender: Task<UInt64, Error>
    private let watcher: Task<Void, Never>
    private let status: AsyncStream<String?>

    init(source: PenKitClient, pressures: [Double], delays: LatePressure.Delays) {
        self.source = source
        self.pressures = pressures
        self.delays = delays
        let (stream, queue) = AsyncStream<(due: UInt64, sampleTime: UInt64, line: String)>.makeStream()
        self.queue = queue
        sender = Task {
            var latest: UInt64 = 0
            for await item in stream {
                let now = MonotonicClock.now()
                if item.due > now { try await Task.sleep(for: .microseconds(item.due - now)) }
                try source.send(item.line)
                latest = max(latest, MonotonicClock.now() &- item.sampleTime)
            }
            return latest
        }
        // The source's own connection: penkitd's word that it is attached, or why it was refused
        // or cut off. One task reads it (a stream has one reader); `attached` waits on `status`.
        let (status, report) = AsyncStream<String?>.makeStream()
        self.status = status
        watcher = Task {
            do {
                for try await line in source.lines {
                    switch PenMessage(line: line.text) {
                    case .pressureSource(let source) where source.state == .attached:
                        report.yield(nil)
                    case .error(let code, let text, _):
                        FileHandle.standardError.write(Data("pressure-feed: penkitd: \(code): \(text)\n".utf8))
                        report.yield("\(code): \(text)")
                    default:
                        continue
                    }
                }
            } catch {}
            report.yield("penkitd closed the source connection")
            report.finish()
        }
    }

    /// Waits for penkitd's word that the source is attached (or throws its refusal).
    func attached() async throws {
        for await problem in status {
            if let problem { throw RuntimeFailure("penkitd refused the source: \(problem)") }
            return
        }
        throw RuntimeFailure("penkitd closed the source connection before attaching it")
    }

    /// The device had sent `sample` contact frames before this source's readings began to be
    /// expected: the first frame expecting force is the trace's contact sample `sample`.
    func startAt(sample: Int) throws {
        guard next == 0 else { return }
        guard sample < pressures.count else {
            throw RuntimeFailure("penkitd had sent \(sample) contact frames for the device before this source attached, "
                + "and the trace has \(pressures.count): nothing is left to feed (start the feed before the replay, "
                + "e.g. penkitd --replay TRACE --realtime --wait-clients 1)")
        }
        if sample > 0 {
            FileHandle.standardError.write(Data(("pressure-feed: attached after \(sample) of the trace's \(pressures.count) "
                + "contact samples; feeding from sample \(sample + 1)\n").utf8))
        }
        next = sample
        skipped = sample
    }

    /// A contact frame expecting force: schedules the next trace reading for it. True once
    /// every reading of the trace is scheduled.
    func sampleSeen(at time: UInt64) throws -> Bool {
        guard next < pressures.count else { throw RuntimeFailure("penkitd sent more contact frames than the trace has samples") }
        let due = max(time &+ delays.next(), lastDue)
        lastDue = due
        queue.yield((due, time, PressureReading(time: time, force: pressures[next]).jsonLine()))
        next += 1
        return next == pressures.count
    }

    /// Waits until every scheduled reading is sent, then leaves (penkitd detaches the source).
    /// Says how late the latest reading went out: one later than penkitd's timeout for the source
    /// (its latency plus jitter, at least penkitd's update timeout) only expired its sample.
    func finish(deviceGone: Bool = false) async throws {
        queue.finish()
        let outcome = await sender.result
        source.disconnect()
        _ = await watcher.value
        let unsent = pressures.count - next
        if deviceGone, unsent > 0 {
            FileHandle.standardError.write(Data(("pressure-feed: the device went away with \(unsent) of the trace's "
                + "\(pressures.count) readings left: no contact frame is left to feed\n").utf8))
        }
        switch outcome {
        case .success(let latest):
            FileHandle.standardError.write(Data(("pressure-feed: sent \(next - skipped) readings; the latest went out "
                + "\(latest / 1000) ms after its sample\n").utf8))
        case .failure(let error):
            throw RuntimeFailure("sending readings failed after \(next) were scheduled: \(error)")
        }
    }
}
