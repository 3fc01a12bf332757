import PenKit
import Testing

/// Every server message type, read back through the client's one decoding path.
struct PenMessageDecodingTests {
    let tool = ToolIdentity(type: .eraser, serial: 0xDEAD_BEEF, id: 0x80A)
    let device = DeviceInfo(id: 3, name: "Pen \"X\"", vendor: 1386, product: 0x59, source: "/dev/input/event7")

    @Test func sessionMessagesDecodeToWhatWasSent() {
        guard case .device(let change)? = PenMessage(line: DeviceChangeMessage(change: .removed, device: device).jsonLine()) else {
            Issue.record("device did not decode"); return
        }
        #expect(change == DeviceChangeMessage(change: .removed, device: device))
        let proximity = ProximityMessage(device: 3, time: 1_000_001, entering: true, tool: tool)
        guard case .proximity(let p)? = PenMessage(line: proximity.jsonLine()) else { Issue.record("proximity"); return }
        #expect(p == proximity)
        let button = ButtonMessage(device: 2, time: 5, button: 331, pressed: false, tool: tool)
        guard case .button(let b)? = PenMessage(line: button.jsonLine()) else { Issue.record("button"); return }
        #expect(b == button)
        guard case .dropped(let d)? = PenMessage(line: DroppedMessage(frames: 7, updates: 1, buttons: 2).jsonLine()) else {
            Issue.record("dropped"); return
        }
        #expect(d == DroppedMessage(frames: 7, updates: 1, buttons: 2))
        guard case .subscribed(let subscribed)? = PenMessage(line: SubscribedMessage(channels: [.strokes, .frames], replaying: 4).jsonLine()) else {
            Issue.record("subscribed"); return
        }
        #expect(subscribed.channels.channels == [.frames, .strokes] && subscribed.replaying == 4)
        #expect(subscribed.devices == nil, "a subscription without the devices channel lists none")
        guard case .shutdown(let shutdown)? = PenMessage(line: ShutdownMessage(reason: "SIGTERM", lastSentSeq: 41).jsonLine()) else {
            Issue.record("shutdown"); return
        }
        #expect(shutdown.reason == "SIGTERM" && shutdown.lastSentSeq == 41)
        // An older server's shutdown does not say; the client must not invent a seq.
        guard case .shutdown(let old)? = PenMessage(line: #"{"type":"shutdown","reason":"SIGINT"}"#), old.lastSentSeq == nil else {
            Issue.record("old shutdown"); return
        }
    }

    @Test func engineMessagesDecodeIntoTheEnginesTypes() {
        let sample = Sample(time: 9, x: 0.1, y: 2, force: 0.5, azimuth: 1, altitude: 1.2, roll: 0, distance: 0,
                            estimated: [.roll], expectingUpdates: [.force], updateIndex: 3)
        let frame = EngineMessage.frame(Frame(tool: tool, stroke: 4, sample: sample, predicted: []))
        guard case .engine(let decoded)? = PenMessage(line: frame.jsonLine()) else { Issue.record("frame"); return }
        #expect(decoded == frame)
    }

    @Test func anUnknownTypeIsKeptWithItsFields() {
        guard case .unknown(let type, let value)? = PenMessage(line: #"{"type":"ink","width":2.5,"name":"pencil"}"#) else {
            Issue.record("unknown type was not kept"); return
        }
        #expect(type == "ink")
        #expect(value["width"]?.double == 2.5 && value["name"]?.string == "pencil")
    }

    @Test(arguments: [#"not json"#, #"[1,2]"#, #"{"no":"type"}"#, #"{"type":"device","change":"moved","device":{"id":1}}"#,
                      #"{"type":"frame","tool":{"type":"pen","serial":0,"id":0}}"#])
    func linesThatAreNotValidMessagesDecodeToNil(line: String) {
        #expect(PenMessage(line: line) == nil)
    }
}
