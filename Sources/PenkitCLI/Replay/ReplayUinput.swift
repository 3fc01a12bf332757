import ArgumentParser
import Foundation
import PenInput
import PenInputRecord
import PenInputLinux
import PenKit

/// `penkit replay TRACE --uinput`: creates a uinput device with the trace's exact
/// description, waits for a reader to open it (penkitd, libinput debug-events, ...), zeroes
/// the kernel's axis fuzz so the recorded values are not filtered twice, and plays every
/// frame at its absolute offset from the start. Needs a writable /dev/uinput.
/// Scripts coordinate through two files: PENKIT_UINPUT_START_FILE (play once it exists) and
/// PENKIT_UINPUT_END_FILE (keep the device after the last frame until it exists). With
/// PENKIT_UINPUT_PAUSE_AT=SECONDS and PENKIT_UINPUT_RESUME_FILE, the replay stops before the first
/// frame SECONDS or more into the trace (after speed), says `uinput: paused`, and plays the rest
/// once that file exists, later by the time it waited (the device stays as it was meanwhile).
/// PENKIT_UINPUT_TIMES_FILE: when each frame was written (CLOCK_MONOTONIC µs, one a line, in the
/// trace's order): the kernel's report times, for a delay measured at a reader (the desktop guest).
func replayThroughUinput(_ command: ReplayCommand) async throws {
    // Bounds that only end a broken run: a VM run on a busy host lasts well over ten minutes, and
    // a device kept for its whole length (the e2e keyboard) must outlive it.
    let scriptWait: UInt64 = 3_600_000_000
    do {
        let trace = try TraceFile.load(path: command.trace, readers: .all).played(atSpeed: command.speed)
        guard trace.devices.count == 1, let device = trace.devices.first else {
            throw RuntimeFailure("--uinput plays traces of one device; \(command.trace) has \(trace.devices.count)")
        }
        let player = try UinputPlayer(description: device.description, events: device.events)
        print("uinput: \(player.device.devnode) \"\(device.description.name)\"")
        fflush(nil)  // scripts wait for this line while the replay waits for them
        try waitForReader(player.device.devnode, timeout: scriptWait)
        // A reader opening the node is not a reader ready for it: libinput opens the node,
        // then (under emulation, for tens of seconds) loads libwacom before it reports the
        // device. A script that knows when its reader is ready says so by creating this file.
        if let startFile = ProcessInfo.processInfo.environment["PENKIT_UINPUT_START_FILE"] {
            print("uinput: waiting for \(startFile)")
            fflush(nil)
            try waitForFile(startFile, timeout: scriptWait)
        }
        try player.device.zeroKernelFuzz()
        let environment = ProcessInfo.processInfo.environment
        if let pauseAt = environment["PENKIT_UINPUT_PAUSE_AT"].flatMap(Double.init),
           let resumeFile = environment["PENKIT_UINPUT_RESUME_FILE"], let first = player.frames.first?.time {
            player.pause = (at: first + UInt64(max(0, pauseAt) * 1_000_000), wait: {
                print("uinput: paused; waiting for \(resumeFile)")
                fflush(nil)
                try waitForFile(resumeFile, timeout: scriptWait)
                print("uinput: resumed")
                fflush(nil)
            })
        }
        let report = try player.play(startingAt: MonotonicClock.now() + 50_000)
        let late = zip(player.frames, report.written).map { frame, written in
            Int64(written) - Int64(report.start + (frame.time - player.frames[0].time))
        }
        if let timesFile = environment["PENKIT_UINPUT_TIMES_FILE"] {
            let lines = report.written.map { "\($0)\n" }.joined()
            guard FileManager.default.createFile(atPath: timesFile, contents: Data(lines.utf8)) else {
                throw RuntimeFailure("cannot write \(timesFile)")
            }
        }
        print("uinput: played \(player.frames.count) frames; write lateness max \(late.max() ?? 0) µs, "
            + "schedule shifted \(report.shifted) µs by stalls over \(player.maxCatchUp) µs")
        fflush(nil)
        if let endFile = ProcessInfo.processInfo.environment["PENKIT_UINPUT_END_FILE"] {
            // Removing the device discards what its readers have not read yet (the kernel's
            // evdev_read fails with ENODEV at once): a script that knows when its readers have
            // caught up says so by creating this file.
            print("uinput: keeping the device until \(endFile) exists")
            fflush(nil)
            try waitForFile(endFile, timeout: scriptWait)
        } else {
            // Leave the device a moment so readers' timers (libinput's 50 ms proximity timeout)
            // run against the device they belong to before it is removed.
            MonotonicClock.sleep(until: MonotonicClock.now() + 250_000)
        }
    } catch let error as UinputError {
        FileHandle.standardError.write(Data("penkit replay --uinput: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

/// Waits until another process has the node open, then a little longer: a reader such as
/// libinput reads the axis ranges (and the original fuzz) right after opening the node.
private func waitForReader(_ devnode: String, timeout: UInt64) throws {
    let deadline = MonotonicClock.now() + timeout
    while DeviceReaders.pids(holding: devnode).isEmpty {
        if MonotonicClock.now() > deadline {
            throw UinputError("no process opened \(devnode) within \(timeout / 1_000_000) s; start the reader (penkitd, libinput debug-events) first")
        }
        usleep(10_000)
    }
    print("uinput: \(devnode) opened by a reader")
    MonotonicClock.sleep(until: MonotonicClock.now() + 200_000)
}

private func waitForFile(_ path: String, timeout: UInt64) throws {
    let deadline = MonotonicClock.now() + timeout
    while access(path, F_OK) != 0 {
        if MonotonicClock.now() > deadline {
            throw UinputError("\(path) did not appear within \(timeout / 1_000_000) s")
        }
        usleep(10_000)
    }
}
