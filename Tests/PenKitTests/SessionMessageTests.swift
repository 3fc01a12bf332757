import Foundation
import PenKit
import Testing

/// The daemon's session messages: what docs/protocol.md promises, checked from the text side.
struct SessionMessageTests {
    @Test func subscribeWithChannelsAndSinceParses() throws {
        let request = try SubscribeRequest.parse(Array(#"{"type":"subscribe","version":1,"channels":["strokes","devices"],"since":17}"#.utf8)).get()
        #expect(request.channels == [.strokes, .devices])
        #expect(request.since == 17)
    }

    @Test func subscribeWithoutChannelsMeansAll() throws {
        let request = try SubscribeRequest.parse(Array(#"{"type":"subscribe","version":1}"#.utf8)).get()
        #expect(request.channels == .all)
        #expect(request.since == nil)
    }

    @Test(arguments: [
        (#"not json"#, "malformed"),
        (#"[1]"#, "malformed"),
        (#"{"version":1}"#, "malformed"),
        (#"{"type":"subscribe"}"#, "malformed"),
        (#"{"type":"subscribe","version":2}"#, "unsupported_version"),
        (#"{"type":"subscribe","version":1,"channels":"strokes"}"#, "malformed"),
        (#"{"type":"subscribe","version":1,"channels":["pixels"]}"#, "unknown_request"),
        (#"{"type":"subscribe","version":1,"since":1.5}"#, "malformed"),
        (#"{"type":"subscribe","version":1,"since":-1}"#, "malformed"),
        (#"{"type":"unsubscribe"}"#, "unknown_request"),
    ])
    func badRequestsGetTheDocumentedCode(line: String, code: String) {
        switch SubscribeRequest.parse(Array(line.utf8)) {
        case .success: Issue.record("accepted \(line)")
        case .failure(let error): #expect(error.code.rawValue == code)
        }
    }

    @Test func aRequestRoundTripsThroughItsOwnLine() throws {
        let request = SubscribeRequest(channels: [.frames, .updates], since: 3)
        #expect(try SubscribeRequest.parse(Array(request.jsonLine().utf8)).get() == request)
    }

    @Test func deviceNamesAreEscapedIntoValidJSON() throws {
        let device = DeviceInfo(id: 2, name: "Pen \"Pro\"\\\n\u{1}", vendor: 1386, product: 89, source: "/dev/input/event5")
        let line = DeviceChangeMessage(change: .added, device: device).jsonLine()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let decoded = try #require(object["device"] as? [String: Any])
        #expect(decoded["name"] as? String == "Pen \"Pro\"\\\n\u{1}")
        #expect(object["change"] as? String == "added")
    }

    @Test func helloAndErrorsDecodeIntoTypedMessages() throws {
        let hello = HelloMessage(devices: [DeviceInfo(id: 1, name: "Wacom", vendor: 1386, product: 184, source: "t")],
                                 settings: ["smoothing": "true"], lastSeq: 9, oldestSeq: 2)
        guard case .hello(let read)? = PenMessage(line: hello.jsonLine()) else {
            Issue.record("hello did not decode")
            return
        }
        #expect(read.version == 1 && read.devices.map(\.name) == ["Wacom"] && read.lastSeq == 9 && read.oldestSeq == 2)
        #expect(read.settings == ["smoothing": "true"])
        #expect(read.server == "penkitd" && read.serverVersion == PenkitVersion.string)
        let overflow = ErrorMessage(code: .overflow, message: "behind", fatal: true, lastSentSeq: 4)
        guard case .overflow(let lastSentSeq, let text)? = PenMessage(line: overflow.jsonLine()) else {
            Issue.record("overflow did not decode as overflow")
            return
        }
        #expect(lastSentSeq == 4 && text == "behind" && PenMessage(line: overflow.jsonLine())?.isFatal == true)
        let error = ErrorMessage(code: .historyGap, message: "gone", fatal: false)
        guard case .error(let code, _, let fatal)? = PenMessage(line: error.jsonLine()) else {
            Issue.record("error did not decode")
            return
        }
        #expect(code == "history_gap" && !fatal)
    }

    @Test func receivedLinesFindNestedUnsignedFields() {
        let line = ReceivedLine(text: #"{"type":"frame","tool":{"type":"pen","serial":0,"id":0},"sample":{"t":123456,"x":1.5}}"#, receivedAt: 0)
        #expect(line.firstUnsigned("t") == 123456)
        #expect(line.firstUnsigned("serial") == 0)
        #expect(line.firstUnsigned("missing") == nil)
    }
}
