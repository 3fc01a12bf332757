import Foundation
import PenInput
@testable import penkitd
import Testing

/// penkitd links no YAML reader: a `libinput record` file given to --replay is refused with a
/// message that names the file and the command that reads it.
@Suite struct ReplayYamlTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/libinput-record/intuos4-stylus-tap.yml").path

    @Test func libinputRecordFileIsRefusedWithThePenkitCommand() {
        let source = ReplayPlan(path: Self.fixture, realtime: false, loop: false, options: .standalone)
        do {
            _ = try source.validate()
            Issue.record("penkitd read a libinput record file")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("\(Self.fixture): "))
            #expect(message.contains("penkitd replays evemu traces"))
            #expect(message.contains("`penkit replay \(Self.fixture)` reads libinput record files"))
        }
    }
}
