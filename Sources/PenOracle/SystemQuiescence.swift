import Glibc
import PenInput
import PenInputLinux
import PenKit

/// Waits for the (guest) system to go quiet before a replay. A new input device sets udev to
/// work (rules, helper programs read over 9p) for a while after it reports the device
/// initialized; in an emulated guest that work delays the replay's writes by tens of ms.
enum SystemQuiescence {
    /// Waits until the CPUs were at least `idleFraction` idle over a `window` (µs), or until
    /// `timeout` (µs) passes. Returns whether the system went quiet.
    @discardableResult
    static func waitUntilIdle(idleFraction: Double = 0.9, window: UInt64 = 200_000, timeout: UInt64 = 15_000_000) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        guard var previous = cpuTicks() else { return false }
        while MonotonicClock.now() < deadline {
            MonotonicClock.sleep(until: MonotonicClock.now() + window)
            guard let current = cpuTicks() else { return false }
            let total = current.total - previous.total
            let idle = current.idle - previous.idle
            previous = current
            if total > 0 && Double(idle) / Double(total) >= idleFraction { return true }
        }
        return false
    }

    /// Total and idle (idle + iowait) jiffies from the first line of /proc/stat.
    private static func cpuTicks() -> (total: UInt64, idle: UInt64)? {
        guard let file = fopen("/proc/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ").dropFirst().compactMap { UInt64($0.trimmingCharacters(in: "\n")) }
        guard fields.count >= 5 else { return nil }
        return (fields.reduce(0, +), fields[3] + fields[4])
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.last == set { s.removeLast() }
        return s
    }
}
