import PenKit
import Testing

/// A pad's device object: its controls in the `pad` object, and none for a pen.
struct PadCapabilitiesTests {
    func json(_ info: DeviceInfo) -> String {
        var w = JSONWriter(capacity: 256)
        w.line(DeviceChangeMessage(change: .added, device: info))
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func aPadListsItsButtonsRingsStripsAndModesPerGroup() {
        let pad = DeviceInfo(id: 2, name: "Wacom Intuos5 touch M Pad", vendor: 0x56a, product: 0x27, source: "/dev/input/event7",
                             pad: PadCapabilities(buttons: 9, rings: 1, strips: 0, modes: [4, 2]))
        #expect(json(pad).contains(#""source":"/dev/input/event7","pad":{"buttons":9,"rings":1,"strips":0,"modes":[4,2]}}"#))
        let pen = DeviceInfo(id: 1, name: "Wacom Intuos5 touch M Pen", vendor: 0x56a, product: 0x27, source: "/dev/input/event6")
        #expect(!json(pen).contains(#""pad""#))
    }

    @Test func aClientReadsThePadBack() {
        let pad = DeviceInfo(id: 2, name: "Pad", vendor: 0x56a, product: 0xb7, source: "/dev/input/event9",
                             pad: PadCapabilities(buttons: 4, rings: 0, strips: 2, modes: [1]))
        guard case .device(let change)? = PenMessage(line: DeviceChangeMessage(change: .added, device: pad).jsonLine()) else {
            Issue.record("device did not decode"); return
        }
        #expect(change.device.pad == PadCapabilities(buttons: 4, rings: 0, strips: 2, modes: [1]))
    }
}
