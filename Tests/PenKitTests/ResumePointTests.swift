@testable import PenKit
import Testing

/// Where a client resumes: the last stroke the app took, else where its session started.
@Suite struct ResumePointTests {
    static let hello = HelloMessage(devices: [], settings: [:], lastSeq: 41, oldestSeq: 1).jsonLine()

    @Test func beforeAnyStrokeItIsWhereTheSessionStarted() {
        var point = ResumePoint()
        #expect(point.since == nil)
        point.took(Self.hello)
        #expect(point.since == 41)
        // A `since` the app subscribed with is where it asked to start, whatever hello said.
        var asked = ResumePoint()
        asked.subscribed(since: 7)
        asked.took(Self.hello)
        #expect(asked.since == 7)
    }

    @Test func eachStrokeTakenMovesItAndOtherLinesDoNot() {
        var point = ResumePoint()
        point.took(Self.hello)
        point.took(#"{"type":"stroke","seq":42,"stroke":3,"device":1,"points":[]}"#)
        point.took(#"{"type":"frame","tool":{"type":"pen","serial":0,"id":0},"stroke":4,"sample":{"t":1}}"#)
        point.took(#"{"type":"shutdown","reason":"SIGTERM","lastSentSeq":99}"#)
        #expect(point.since == 42)
        // A second hello (a new session) does not move it back.
        point.took(Self.hello)
        #expect(point.since == 42)
        // A seq that does not fit is not taken as one.
        point.took(#"{"type":"stroke","seq":99999999999999999999999,"stroke":3}"#)
        #expect(point.since == 42)
    }
}
