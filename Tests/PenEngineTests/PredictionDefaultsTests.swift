import PenEngine
import PenKit
import Testing

/// The prediction a client gets without asking (`PredictionRequest.standard`, PenKit) and the one
/// the engine makes (`PredictionConfiguration`, PenEngine) are written in two modules. penkitd
/// sends a client on `.standard` the engine's own frame line (`Outbound.range(for:)`), so the
/// two must name the same horizon, or the protocol's "absent: the daemon's horizon" is false.
@Suite struct PredictionDefaultsTests {
    @Test func theClientsDefaultHorizonIsTheEngines() {
        let engine = PredictionConfiguration.standard().horizon
        #expect(engine == PredictionConfiguration.defaultHorizon)
        #expect(PredictionRequest.standard == .horizon(micros: UInt32((engine / .microseconds(1)).rounded())))
        #expect(PredictionRequest.standard.horizon(eventTime: 0, now: 0) == engine / .seconds(1))
    }

    /// The longest horizon a client may ask for is the engine's cap, in the same two places.
    @Test func theClientsLongestHorizonIsTheEnginesCap() {
        #expect(PredictionRequest.maxHorizonMs == PredictionConfiguration.horizonCap / .milliseconds(1))
    }
}
