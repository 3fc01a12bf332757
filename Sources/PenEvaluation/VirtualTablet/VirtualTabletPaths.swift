import FoundationEssentials
import PenEngine
import PenInput
import PenKit
import PenVirtualTablet

/// What an app receives for one recorded tablet, along the two ways a pen can reach it, each as
/// the compositor's libinput would report it (penkit's libinput-exact decoder with that path's
/// quirks):
/// - the real pen: the trace decoded without smoothing (what the pen did);
/// - path (a), the libinput default: the real device as libinput reads it by default;
/// - path (b), penkit's virtual tablet: the real device read raw (as penkitd reads it with the
///   virtual tablet on), written by `VirtualPen` with the tool's feel, then read by libinput
///   with penkit's quirk (no smoothing, penkit's contact).
package struct VirtualTabletPaths: Sendable {
    package let real: [TabletEvent]
    package let libinput: [TabletEvent]
    package let virtual: [TabletEvent]
    /// What VirtualPen wrote, frame by frame (times: the raw events').
    package let written: [EvdevEvent]
    package let virtualDevice: DeviceDescription
    /// The virtual tablet made for the device (what `VirtualPen` writes to).
    package let layout: VirtualTabletLayout
    /// Whether libinput smooths the real device by default (its quirks, libwacom): the virtual
    /// tablet filters only those, as penkitd does.
    package let libinputSmooths: Bool

    /// `quirksFile`: penkit's virtual-tablet quirk as installed (a file holding
    /// `VirtualTabletQuirk.contents`); `systemQuirks`: libinput's quirks for both paths.
    package init(device: DeviceDescription, events: [EvdevEvent], feel: PenFeel, quirksFile: String,
                filter: JitterFilter.Parameters = .standard, lead: VirtualTabletLead = VirtualTabletLead(milliseconds: 0),
                systemQuirks: [String] = Quirks.defaultPaths, libwacomDirectory: String? = LibwacomDatabase.defaultDirectory) throws {
        let raw = DecoderOptions(smoothing: false, libwacomDirectory: libwacomDirectory, quirksPaths: systemQuirks)
        let standard = DecoderOptions(libwacomDirectory: libwacomDirectory, quirksPaths: systemQuirks)
        real = try TabletDecoder.decode(events, device: device, options: raw)
        libinputSmooths = try TabletDecoder(device: device, options: standard).smoothing
        libinput = try TabletDecoder.decode(events, device: device, options: standard)
        let size = VirtualTabletLayout.sensorSize(of: device)
        guard let layout = VirtualTabletLayout(real: device, width: size.width, height: size.height) else {
            throw VirtualTabletBenchError("\(device.name): no pen tool, so no virtual tablet")
        }
        virtualDevice = layout.description
        self.layout = layout
        var pen = VirtualPen(layout: layout, filter: filter, smoothing: libinputSmooths)
        var written: [EvdevEvent] = []
        // With a lead, penkit's engine runs beside the pen as in penkitd (raw input, its default
        // prediction), and each report's frame says where the prediction puts the pen.
        var engine = lead.isOff ? nil : StrokeEngine(prediction: EnginePrediction.penkit(smoothed: false))
        var messages: [EngineMessage] = []
        for event in real {
            var ahead: SIMD2<Double>?
            if engine != nil {
                messages.removeAll(keepingCapacity: true)
                engine!.handle(event, into: &messages)
                for case .frame(let frame) in messages { ahead = lead.offset(in: frame) }
            }
            pen.translate(event, mapping: nil, feel: feel, ahead: ahead, into: &written)
        }
        if let last = real.last { pen.leave(at: last.time, into: &written) }
        self.written = written
        let compositor = DecoderOptions(libwacomDirectory: libwacomDirectory, quirksPaths: systemQuirks + [quirksFile])
        virtual = try TabletDecoder.decode(written, device: layout.description, options: compositor)
    }
}

package struct VirtualTabletBenchError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
