import PenKit
@testable import penkit
import Testing

/// `penkit events` rows for pads and actions: pad events worded as `libinput debug-events` words
/// them (its format strings `%3d %s (mode %d)` and `ring %d position %.2f (source %s) (mode %d)`,
/// as Debian's libinput-tools 1.22 prints), and no message type printed as an empty row.
@Suite struct EventsFormatterTests {
    /// The text after the device, type and time columns (`event5    TYPE           +0.000s  text`).
    static func text(_ row: String) -> String {
        let fields = row.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        return fields.count == 4 ? String(row[row.index(fields[3].startIndex, offsetBy: 1)...]) : ""
    }

    static func rows(_ lines: [String]) throws -> [String] {
        var formatter = EventsFormatter()
        return try lines.map { line in
            let message = try #require(PenMessage(line: line), "not decoded: \(line)")
            if case .unknown(let type, _) = message { Issue.record("\(type) decoded as unknown: \(line)") }
            return formatter.describe(message)
        }
    }

    @Test func padEventsReadAsLibinputDebugEventsPrintsThem() throws {
        let rows = try Self.rows([
            #"{"type":"pad","device":2,"t":405000000,"event":"button","button":3,"state":"pressed","group":0,"mode":1}"#,
            #"{"type":"pad","device":2,"t":405100000,"event":"button","button":11,"state":"released","group":0,"mode":0}"#,
            // As the e2e VM's penkitd sent it for libinput's ring lift.
            #"{"type":"pad","device":2,"t":405349758,"event":"ring","number":0,"position":-1.0,"source":"finger","group":0,"mode":0}"#,
            #"{"type":"pad","device":2,"t":405400000,"event":"strip","number":1,"position":0.4166,"source":"unknown","group":0,"mode":2}"#,
        ])
        #expect(rows.map { $0.split(separator: " ")[1] } == ["TABLET_PAD_BUTTON", "TABLET_PAD_BUTTON", "TABLET_PAD_RING", "TABLET_PAD_STRIP"])
        #expect(rows.map { $0.hasSuffix("  3 pressed (mode 1)") } == [true, false, false, false])
        #expect(rows[1].hasSuffix(" 11 released (mode 0)"))
        #expect(rows[2].hasSuffix("ring 0 position -1.00 (source finger) (mode 0)"))
        #expect(rows[3].hasSuffix("strip 1 position 0.42 (source unknown) (mode 2)"))
        #expect(rows[1].contains("+0.100s"))
    }

    @Test func actionsAndPressureSourcesAndOverflowAreNeverEmptyRows() throws {
        let rows = try Self.rows([
            #"{"type":"action","action":"switchEraser","device":1,"t":5000,"source":{"trigger":"stylus-double","kind":"stylus","button":331,"press":"double","tool":{"type":"pen","serial":1234,"id":2083}}}"#,
            #"{"type":"action","action":"myApp.padKey","device":3,"t":6000,"source":{"trigger":"pad-1","kind":"pad","button":1,"press":"single"}}"#,
            #"{"type":"action","action":"myApp.zoomIn","device":3,"t":7000,"source":{"trigger":"ring-0-cw-mode-0","kind":"ring","number":0,"direction":"cw","group":0,"mode":0}}"#,
            #"{"type":"pressure-source","device":1,"state":"attached","latency":20000,"jitter":10000,"contactFrames":0}"#,
            #"{"type":"pressure-source","device":1,"state":"detached","fallback":"in-band","reason":"the source disconnected"}"#,
            #"{"type":"error","code":"overflow","message":"client fell behind","fatal":true,"lastSentSeq":41}"#,
        ])
        for row in rows { #expect(!Self.text(row).trimmingCharacters(in: .whitespaces).isEmpty, "empty row: \(row)") }
        #expect(rows[0].contains("switchEraser  stylus-double: BTN_STYLUS (331) double press of pen (serial 1234)"))
        #expect(rows[1].contains("myApp.padKey  pad-1: pad button 1 press"))
        #expect(rows[2].contains("myApp.zoomIn  ring-0-cw-mode-0: ring 0 cw (mode 0)"))
        #expect(rows[3].contains("PRESSURE_SOURCE") && rows[3].contains("latency 20000 µs, jitter 10000 µs"))
        #expect(rows[4].contains("from the tablet again (the source disconnected)"))
        #expect(rows[5].contains("overflow (fatal)") && rows[5].contains("--since 41"))
    }
}
