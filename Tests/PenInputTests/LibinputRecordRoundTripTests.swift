import CLibevdev
import Foundation
@testable import PenInput
@testable import PenInputRecord
@testable import PenInputLinux
@testable import PenOracle
import Testing

/// Real `libinput record` output, made in the VM by `make e2e` while `penkit replay --uinput`
/// played a bundled trace (committed in Tests/Fixtures/libinput-record/vm/), read back through penkit's
/// YAML reader: the device must be the trace's device, and the events exactly what the
/// kernel passes on of the trace's events.
@Suite struct LibinputRecordRoundTripTests {
    /// `make e2e` points this at the recordings it has just made; otherwise the committed ones.
    static var directory: String {
        ProcessInfo.processInfo.environment["PENKIT_RECORDINGS_DIR"] ?? TraceFixtures.fixture("libinput-record/vm")
    }

    static var recordings: [String] {
        let dir = directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".yml") }.sorted()
    }

    @Test(arguments: recordings)
    func recordingReadsBackAsTheReplayedTrace(name: String) throws {
        let recorded = try TraceFile.load(path: "\(Self.directory)/\(name)", readers: .all)
        let original = try TraceFile.load(path: TraceFixtures.trace(name.replacingOccurrences(of: ".yml", with: ".evemu")), readers: .all)
        try #require(recorded.devices.count == 1)
        let device = recorded.devices[0].description, want = original.devices[0].description
        #expect(device.name == want.name)
        #expect([device.bustype, device.vendor, device.product, device.version] == [want.bustype, want.vendor, want.product, want.version])
        #expect(device.codes[UInt16(EV_KEY)] == want.codes[UInt16(EV_KEY)])
        #expect(device.codes[UInt16(EV_ABS)] == want.codes[UInt16(EV_ABS)])
        for (code, info) in want.absInfo {
            let got = device.absInfo[code]
            #expect(got?.minimum == info.minimum && got?.maximum == info.maximum && got?.resolution == info.resolution,
                    "axis \(code): \(String(describing: got)) vs \(info)")
        }

        var filter = KernelInputFilter(device: want)
        let expected = EvdevFrame.split(original.devices[0].events).compactMap { filter.pass($0) }
        let got = EvdevFrame.split(recorded.devices[0].events)
        #expect(got.count == expected.count)
        var mismatches = 0, backwards = 0
        var worstOffset: Int64 = 0
        for (index, (g, e)) in zip(got, expected).enumerated() {
            let same = g.events.count == e.events.count
                && zip(g.events, e.events).allSatisfy { $0.type == $1.type && $0.code == $1.code && $0.value == $1.value }
            if !same { mismatches += 1 }
            if index > 0, g.time < got[index - 1].time { backwards += 1 }
            let offset = Int64(g.time - got[0].time) - Int64(e.time - expected[0].time)
            worstOffset = max(worstOffset, abs(offset))
        }
        #expect(mismatches == 0)
        // The guest is emulated and the host shared: its clock says nothing about the replay's
        // pacing (CI saw offsets of 2 s), so only the order of the recorded times is checked.
        #expect(backwards == 0)
        print("libinput record round trip \(name): \(got.count) frames, largest time offset \(worstOffset) µs (reported, not checked)")
    }
}
