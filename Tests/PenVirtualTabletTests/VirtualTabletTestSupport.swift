import Foundation
import PenInput
import PenKit

/// Shared by the virtual tablet's tests: the repository's traces, decoded raw (as penkitd reads
/// tablets with the virtual tablet on), and the quirk as the package installs it.
enum VirtualTabletFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func trace(_ name: String) throws -> Trace.Device {
        let trace = try TraceFile.load(path: repository.appendingPathComponent("traces/\(name)").path)
        return trace.devices[0]
    }

    static var quirkFile: String { repository.appendingPathComponent("libinput/70-penkit-virtual-tablet.quirks").path }

    /// No libwacom and no system quirks: the decoder follows the device description and penkit's quirk alone.
    static func rawDecode(_ device: Trace.Device) throws -> [TabletEvent] {
        try TabletDecoder.decode(device.events, device: device.description,
                                 options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
    }

    static func compositorDecode(_ events: [EvdevEvent], device: DeviceDescription) throws -> [TabletEvent] {
        try TabletDecoder.decode(events, device: device,
                                 options: DecoderOptions(libwacomDirectory: nil, quirksPaths: [quirkFile]))
    }
}
