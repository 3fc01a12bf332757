import Foundation
import PenKit
import Testing

/// subscribe's "predict", as docs/protocol.md documents it.
struct PredictionRequestTests {
    private func parse(_ predict: String) -> Result<SubscribeRequest, ErrorMessage> {
        SubscribeRequest.parse(Array(#"{"type":"subscribe","version":1,"predict":"#.utf8) + Array(predict.utf8) + [UInt8(ascii: "}")])
    }

    @Test(arguments: [
        (#"{"horizonMs":24}"#, PredictionRequest.horizon(micros: 24_000)),
        (#"{"horizonMs":8.5}"#, .horizon(micros: 8_500)),
        (#"{"horizonMs":80}"#, .horizon(micros: 50_000)),
        (#"{"horizonMs":0}"#, .none),
        (#""none""#, .none),
        (#"{"pipeline":true,"displayLatencyMs":8}"#, .pipelineAge(displayLatencyMicros: 8_000)),
        (#"{"pipeline":true}"#, .pipelineAge(displayLatencyMicros: 0)),
    ])
    func documentedFormsParse(text: String, expected: PredictionRequest) throws {
        #expect(try parse(text).get().predict == expected)
    }

    @Test(arguments: [#"{"horizonMs":-1}"#, #"{"horizonMs":"16"}"#, #""soon""#, #"{}"#, #"{"horizonMs":16,"pipeline":true}"#,
                      #"{"pipeline":false}"#, #"{"horizonMs":16,"displayLatencyMs":8}"#, #"{"horizon":16}"#, "16"])
    func anythingElseIsMalformed(text: String) {
        switch parse(text) {
        case .success(let request): Issue.record("accepted \(text) as \(String(describing: request.predict))")
        case .failure(let error): #expect(error.code.rawValue == "malformed")
        }
    }

    @Test func absentMeansTheDefault() throws {
        #expect(try SubscribeRequest.parse(Array(#"{"type":"subscribe","version":1}"#.utf8)).get().predict == nil)
    }

    @Test(arguments: [PredictionRequest.horizon(micros: 24_000), .none, .pipelineAge(displayLatencyMicros: 8_000)])
    func requestsRoundTripThroughTheirLine(predict: PredictionRequest) throws {
        let request = SubscribeRequest(channels: [.frames], predict: predict)
        #expect(try SubscribeRequest.parse(Array(request.jsonLine().utf8)).get() == request)
    }

    @Test func thePipelineHorizonIsTheFramesAgePlusTheLatencyCappedAt50Ms() {
        let request = PredictionRequest.pipelineAge(displayLatencyMicros: 8_000)
        #expect(abs(request.horizon(eventTime: 1_000_000, now: 1_003_000) - 0.011) < 1e-12)
        #expect(request.horizon(eventTime: 1_000_000, now: 1_100_000) == 0.050)
        // An event stamped after "now" (another clock) has no age.
        #expect(abs(request.horizon(eventTime: 2_000_000, now: 1_000_000) - 0.008) < 1e-12)
    }
}
