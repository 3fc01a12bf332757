import PenEngine
import Testing

/// Engine settings are checked once, where they are made: each out-of-range value is refused
/// with its name and unit, never clamped later.
@Suite struct EngineConfigurationTests {
    @Test func theDefaultsAreValid() throws {
        let configuration = try EngineConfiguration().validated()
        #expect(configuration.updateTimeout == .milliseconds(100))
        #expect(configuration.tiltTimeout == .milliseconds(100))
    }

    @Test(arguments: ["updateTimeout 0", "updateTimeout 11 s", "tiltTimeout -5 ms", "matchTolerance 60 s",
                      "defaultForce 1.5", "defaultForce nan", "maxSamplesPerStroke 0", "maxHoverSamplesAwaitingTilt -1"])
    func anOutOfRangeSettingIsRefusedByName(setting: String) {
        var configuration = EngineConfiguration()
        switch setting {
        case "updateTimeout 0": configuration.updateTimeout = .zero
        case "updateTimeout 11 s": configuration.updateTimeout = .seconds(11)
        case "tiltTimeout -5 ms": configuration.tiltTimeout = .milliseconds(-5)
        case "matchTolerance 60 s": configuration.pressureSource = .separate(matchTolerance: .seconds(60))
        case "defaultForce 1.5": configuration.defaultForce = 1.5
        case "defaultForce nan": configuration.defaultForce = .nan
        case "maxSamplesPerStroke 0": configuration.maxSamplesPerStroke = 0
        default: configuration.maxHoverSamplesAwaitingTilt = -1
        }
        let name = String(setting.split(separator: " ")[0])
        #expect {
            _ = try configuration.validated()
        } throws: { error in
            (error as? ParameterError)?.description.contains(name) == true
        }
    }

    @Test func aZeroMatchToleranceIsValid() throws {
        var configuration = EngineConfiguration()
        configuration.pressureSource = .separate(matchTolerance: .zero)
        _ = try configuration.validated()
    }

    @Test func durationsBecomeWholeMicroseconds() {
        #expect(Duration.milliseconds(100).wholeMicroseconds == 100_000)
        #expect(Duration.nanoseconds(1_999).wholeMicroseconds == 1)
        #expect(Duration.seconds(-1).wholeMicroseconds == 0)
        #expect(Duration.seconds(Int64.max).wholeMicroseconds == .max)
    }
}
