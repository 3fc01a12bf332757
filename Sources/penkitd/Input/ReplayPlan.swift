import Logging
import PenInput
import PenKit
import Glibc
import Synchronization

/// A recorded trace to replay as if it were live input: read and checked by `validate` before
/// the daemon says READY, then replayed by the input loop as a `TraceReplaySource`. With `realtime`,
/// frames go out at their recorded pace and their times are moved onto CLOCK_MONOTONIC, as
/// libinput's would be.
final class ReplayPlan: Sendable {
    let path: String
    let realtime: Bool
    let loop: Bool
    let options: DecoderOptions
    let probe: LatencyProbe?
    /// The trace as read by `validate`: a FIFO or process substitution can be read only once.
    private let loaded = Mutex<Trace?>(nil)
    /// The longest span of event times replayed (about 8.9 years): beyond it, times moved onto
    /// the run's clock could overflow; such a trace is refused with a clear error instead.
    static let maxSpan: UInt64 = 1 << 48

    init(path: String, realtime: Bool, loop: Bool, options: DecoderOptions, probe: LatencyProbe? = nil) {
        self.probe = probe
        self.path = path
        self.realtime = realtime
        self.loop = loop
        self.options = options
    }

    /// Reads the trace (interruptibly: `isStopping` is checked every 25 ms, so a slow pipe writer
    /// does not hold penkitd; a FIFO without a writer is refused at once) and checks it can be decoded, so that errors surface before
    /// the daemon says READY. Every error names the trace file.
    func validate(isStopping: () -> Bool = { false }) throws -> [DeviceInfo] {
        let bytes: [UInt8]
        do {
            bytes = try InterruptibleRead.read(path: path, limit: TraceFile.maximumSize, isStopping: isStopping,
                                               refusal: { TraceFileKind.refusal($0, first: &$1) })
        } catch .stopped {
            throw StoppedWhileStarting()
        } catch .tooLarge {
            throw DaemonError("\(path): larger than \(TraceFile.maximumSize >> 20) MiB, the most penkitd reads: not a trace")
        } catch .refused(let reason) {
            throw DaemonError("\(path): \(reason)")
        } catch .open(let code) {
            throw DaemonError("\(path): cannot open the trace: \(String(cString: strerror(code)))")
        } catch .read(let code) {
            throw DaemonError("\(path): cannot read the trace: \(String(cString: strerror(code)))")
        }
        // penkitd links no YAML reader (Yams brings all of Foundation, tens of MB): it says where
        // such a file is read instead of failing on it as on a broken trace.
        if try bytes.withUnsafeBufferPointer({ try TraceFile.detectFormat($0, name: path) }) == .libinputRecord {
            throw DaemonError("\(path): a `libinput record` YAML file: penkitd replays evemu traces; `penkit replay \(path)` reads libinput record files")
        }
        let trace = try TraceFile.parse(bytes: bytes, name: path)
        guard !trace.devices.isEmpty else { throw DaemonError("\(path): no devices in trace") }
        for device in trace.devices {
            do {
                _ = try TabletDecoder(device: device.description, options: options)
            } catch {
                throw DaemonError("\(path): \(device.description.name): \(error)")
            }
        }
        let times = trace.devices.flatMap { $0.events.map(\.time) }
        if let first = times.min(), let last = times.max(), last - first > Self.maxSpan {
            throw DaemonError("\(path): events span \((last - first) / 1_000_000) s (a far time jump?); penkitd replays at most \(Self.maxSpan / 1_000_000) s")
        }
        loaded.withLock { $0 = trace }
        return trace.devices.enumerated().map { index, device in
            DeviceInfo(id: index + 1, name: device.description.name, vendor: device.description.vendor,
                       product: device.description.product, source: path,
                       geometry: TabletGeometry(device.description))
        }
    }

    /// The replay as an input source, taking the trace `validate` read: a finished replay of a
    /// long recording must not keep it (tens of MiB for a 10 min stroke).
    func source(devices: [DeviceInfo], pressure: ControlQueue?, recorder: FlightRecorder? = nil, logger: Logger) throws -> TraceReplaySource {
        guard let trace = loaded.withLock({ loaded -> Trace? in
            defer { loaded = nil }
            return loaded
        }) else { throw DaemonError("\(path): replay started before the trace was read") }
        // Paced, the first pass starts now on CLOCK_MONOTONIC; unpaced, on the trace's own clock.
        let schedule = try ReplaySchedule(trace: trace, options: options, base: realtime ? MonotonicClock.now() : nil)
        for (device, recorded) in zip(devices, trace.devices) { recorder?.deviceAdded(device, description: recorded.description) }
        return TraceReplaySource(self, schedule: schedule, deviceIDs: devices.map(\.id), pressure: pressure, recorder: recorder,
                           logger: logger)
    }
}
