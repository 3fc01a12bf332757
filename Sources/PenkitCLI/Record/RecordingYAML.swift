import PenInput
import PenKit

/// A recording written as `libinput record` YAML (format version 1), so that libinput's own tools
/// (`libinput replay`, `libinput analyze`) and `penkit replay` read it, with penkit's part under
/// a `penkit:` key they ignore: penkitd's version and settings, and the lines it published in the
/// window, each a YAML string of its exact JSON text.
///
/// Event times are the kernel's own (CLOCK_MONOTONIC, as `sec, usec`), not shifted to start at
/// zero as `libinput record` does: the published lines carry the same times, and `penkit replay
/// --check` compares them.
enum RecordingYAML {
    static let typeNames: [UInt16: String] = [0: "EV_SYN", 1: "EV_KEY", 2: "EV_REL", 3: "EV_ABS", 4: "EV_MSC", 5: "EV_SW",
                                              17: "EV_LED", 18: "EV_SND", 20: "EV_REP", 21: "EV_FF"]

    static func text(_ recording: Recording, kernel: String, os: String) -> String {
        var y = ""
        y += "# libinput record, written by penkit record \(PenkitVersion.string) from penkitd's flight recorder\n"
        y += "# It holds pen positions, which can be handwriting: look before you share it.\n"
        y += "version: 1\n"
        let devices = recording.devices.filter { $0.description != nil }
        y += "ndevices: \(devices.count)\n"
        y += "libinput:\n  version: \(quoted(recording.settings["libinput"] ?? "unknown"))\n  git: \"unknown\"\n"
        y += "system:\n  os: \(quoted(os))\n  kernel: \(quoted(kernel))\n  dmi: \"unknown\"\n"
        y += "devices:\n"
        for device in devices {
            let d = device.description!
            y += "- node: \(quoted(device.node))\n"
            y += "  evdev:\n"
            y += "    # Name: \(d.name.replacingOccurrences(of: "\n", with: " "))\n"
            y += "    name: \(quoted(d.name))\n"
            y += "    id: [\(d.bustype), \(d.vendor), \(d.product), \(d.version)]\n"
            y += "    codes:\n"
            for type in d.codes.keys.sorted() {
                let codes = d.codes[type]!.sorted().map(String.init).joined(separator: ", ")
                y += "      \(type): [\(codes)] # \(typeNames[type] ?? "type \(type)")\n"
            }
            y += "    absinfo:\n"
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                y += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
            }
            y += "    properties: [\(d.properties.sorted().map(String.init).joined(separator: ", "))]\n"
            y += "  hid: []\n"
            y += "  udev:\n    properties: []\n"
            y += "  quirks: []\n"
            y += "  events:\n"
            // One `- evdev:` item per frame (up to its SYN_REPORT), as libinput record writes them.
            var frame: [EvdevEvent] = []
            for event in device.events {
                frame.append(event)
                if event.type == 0 && event.code == 0 {
                    y += eventBlock(frame)
                    frame.removeAll(keepingCapacity: true)
                }
            }
            if !frame.isEmpty { y += eventBlock(frame) }
        }
        y += "penkit:\n"
        y += "  penkitd: \(quoted(recording.penkitdVersion))\n"
        y += "  seconds: \(recording.seconds)\n"
        y += "  from: \(recording.from)\n"
        y += "  to: \(recording.to)\n"
        y += "  fromStart: \(recording.fromStart)\n"
        // penkitd's id of each device above, in order: a replay numbers them from 1.
        y += "  deviceIDs: [\(devices.map { String($0.id) }.joined(separator: ", "))]\n"
        y += "  settings:\n"
        for (key, value) in recording.settings.sorted(by: { $0.key < $1.key }) { y += "    \(quoted(key)): \(quoted(value))\n" }
        // penkitd's ids of the devices the virtual tablet's grab held in the window (their events are not above).
        y += "  grabbed: [\(recording.devices.filter(\.grabbed).map { String($0.id) }.joined(separator: ", "))]\n"
        // What penkitd knew of each device's tools, and when: a replay of a window that starts
        // after penkitd opened the tablet starts knowing it.
        y += RecordedTools.yaml(recording.devices.map { ($0.id, $0.tools) })
        // One row per engine line penkitd published: [µs, type, in a stroke, digest, digest without
        // the prediction, the counter it carries] (LineDigest): `penkit replay --check` regenerates
        // the lines and compares their digests.
        y += recording.lines.isEmpty ? "  lines: []\n" : "  lines:\n"
        for line in recording.lines { y += "  - \(line.yaml)\n" }
        return y
    }

    private static func eventBlock(_ frame: [EvdevEvent]) -> String {
        var y = "  - evdev:\n"
        for e in frame {
            y += "    - [\(e.time / 1_000_000), \(e.time % 1_000_000), \(e.type), \(e.code), \(e.value)]\n"
        }
        return y
    }

    /// A YAML double-quoted scalar: JSON's escaping is a subset of YAML's.
    static func quoted(_ text: String) -> String {
        var w = JSONWriter(capacity: text.utf8.count + 2)
        w.string(text)
        return w.text
    }
}
