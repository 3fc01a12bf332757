import PenKit
import Testing

/// `subscribe` takes its numbers by JSON type: issue #17 found `version: true`, `1.5` and
/// 2^64+1 taken as 1, and `since: true` as 1; `since: null` was taken as no `since`.
struct SubscribeStrictTypesTests {
    @Test(arguments: [
        #"{"type":"subscribe","version":true}"#,
        #"{"type":"subscribe","version":1.5}"#,
        #"{"type":"subscribe","version":18446744073709551617}"#,
        #"{"type":"subscribe","version":"1"}"#,
        #"{"type":"subscribe","version":1,"since":true}"#,
        #"{"type":"subscribe","version":1,"since":"3"}"#,
        #"{"type":"subscribe","version":1,"since":18446744073709551616}"#,
        #"{"type":"subscribe","version":1,"since":2.5}"#,
        // null is a value of the wrong type, not an absent field.
        #"{"type":"subscribe","version":1,"since":null}"#,
        #"{"type":"subscribe","version":null}"#,
    ])
    func aNumberOfTheWrongTypeIsMalformed(line: String) {
        switch SubscribeRequest.parse(Array(line.utf8)) {
        case .success(let request): Issue.record("accepted \(line) as \(request)")
        case .failure(let error): #expect(error.code == .malformed)
        }
    }

    @Test func theLargestSinceIsAccepted() throws {
        let request = try SubscribeRequest.parse(Array(#"{"type":"subscribe","version":1,"since":18446744073709551615}"#.utf8)).get()
        #expect(request.since == UInt64.max)
    }
}
