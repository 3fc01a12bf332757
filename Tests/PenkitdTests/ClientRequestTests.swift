import PenKit
import Testing

/// Each client line is parsed once into one request, and a line that is not one gets the error
/// the protocol names (docs/protocol.md), as the hub answered before it routed by type.
@Suite struct ClientRequestTests {
    private func parse(_ line: String) -> ClientRequest { ClientRequest.parse(Array(line.utf8)) }

    private func errorCode(_ line: String) -> ErrorMessage.Code? {
        if case .invalid(let error) = parse(line) { return error.code }
        return nil
    }

    @Test func eachTypeIsItsOwnRequest() {
        #expect(parse(#"{"type":"subscribe","version":1,"channels":["frames"]}"#)
            == .subscribe(SubscribeRequest(channels: [.frames])))
        #expect(parse(#"{"type":"status","version":1}"#) == .status(StatusRequest()))
        #expect(parse(#"{"type":"record","version":1,"seconds":5}"#) == .record(RecordRequest(seconds: 5)))
        #expect(parse(#"{"type":"pressure-source","version":1,"device":2,"latency":100,"jitter":10}"#)
            == .pressureSource(.success(PressureSourceRequest(device: 2, latency: 100, jitter: 10))))
    }

    @Test func aLineThatIsNoRequestGetsItsError() {
        #expect(errorCode("not json") == .malformed)
        #expect(errorCode(#"{"version":1}"#) == .malformed)
        #expect(errorCode(#"{"type":"unsubscribe"}"#) == .unknownRequest)
        #expect(errorCode(#"{"type":"status","version":2}"#) == .unsupportedVersion)
        #expect(errorCode(#"{"type":"record","version":1,"seconds":0}"#) == .outOfRange)
    }

    /// A bad declaration is answered only after penkitd decides it takes sources from this peer.
    @Test func aBadDeclarationIsKeptForItsHandler() {
        guard case .pressureSource(.failure(let error)) = parse(#"{"type":"pressure-source","version":1,"device":0,"latency":1,"jitter":1}"#) else {
            Issue.record("expected a failed declaration")
            return
        }
        #expect(error.code == .malformed && error.fatal)
    }
}
