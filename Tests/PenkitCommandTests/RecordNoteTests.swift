@testable import penkit
import Testing

/// What `penkit record` says of devices the virtual tablet's grab kept out of a recording: each by
/// its node and penkitd's id, so a tablet plugged in again on the same node is not named twice alike.
@Suite struct RecordNoteTests {
    /// A `recording` header as penkitd sends it (docs/protocol.md): one tablet unplugged and plugged
    /// in again on the same node in the window, both grabbed, and a pad that never is.
    static func recording() throws -> Recording {
        var recording = Recording()
        let lines = [
            #"{"type":"recording","version":1,"penkitd":"0.1.0","seconds":60,"from":1,"to":2,"settings":{},"fromStart":false,"devices":["#
                + #"{"id":1,"name":"Wacom Intuos4 6x9","node":"/dev/input/event5","grabbed":true,"events":0},"#
                + #"{"id":2,"name":"Wacom Intuos4 6x9 Pad","node":"/dev/input/event6","grabbed":false,"events":0},"#
                + #"{"id":3,"name":"Wacom Intuos4 6x9","node":"/dev/input/event5","grabbed":true,"events":0}]}"#,
            #"{"type":"recording-end","events":0,"lines":0}"#,
        ]
        for line in lines { _ = try recording.take(line) }
        return recording
    }

    @Test func theNoteNamesEachGrabbedDeviceByNodeAndID() throws {
        let note = RecordCommand.note(try Self.recording())
        #expect(note.hasSuffix("; grabbed by the virtual tablet, so not recorded: /dev/input/event5 (device 1), /dev/input/event5 (device 3)"))
        #expect(!note.contains("event6"))
    }

    @Test func theFileListsTheGrabbedDevicesByID() throws {
        let text = RecordingYAML.text(try Self.recording(), kernel: "6.1", os: "Debian")
        #expect(text.contains("\n  grabbed: [1, 3]\n"))
    }
}
