import Foundation
import PenTestSupport
import Testing
@testable import PenKit

// FrameTimeScan reads frames without decoding them; PenMessage's full decode is the judge.

private func expectedScan(_ line: String) -> FrameTimeScan {
    guard case .engine(.frame(let frame)) = PenMessage(line: line) else { return .unrecognised }
    return frame.stroke != nil && frame.sample.expectingUpdates.contains(.force)
        ? .contactExpectingForce(time: frame.sample.time) : .otherFrame
}

private func randomSample(_ g: inout SeededGenerator) -> Sample {
    Sample(time: UInt64.random(in: 0...UInt64.max, using: &g), x: .random(in: 0...500, using: &g),
           y: .random(in: 0...300, using: &g), force: .random(in: 0...1, using: &g), azimuth: 1, altitude: 1, roll: 0,
           distance: 0, estimated: SampleProperties(rawValue: UInt8.random(in: 0...31, using: &g)),
           expectingUpdates: SampleProperties(rawValue: UInt8.random(in: 0...31, using: &g)),
           updateIndex: Bool.random(using: &g) ? .random(in: 0...1 << 40, using: &g) : nil)
}

@Test func frameTimeScanAgreesWithTheFullDecodeOnPenkitdsFrames() {
    var g = SeededGenerator(seed: 13)
    var contact = 0
    for _ in 0..<2000 {
        let frame = Frame(tool: ToolIdentity(type: .pen, serial: .random(in: 0...UInt64.max, using: &g), id: 2050),
                          stroke: Bool.random(using: &g) ? .random(in: 1...UInt64.max, using: &g) : nil,
                          sample: randomSample(&g),
                          predicted: (0..<Int.random(in: 0...4, using: &g)).map { _ in randomSample(&g) },
                          expectedError: Bool.random(using: &g) ? 0.1 : nil, device: .random(in: 0...20, using: &g))
        let line = EngineMessage.frame(frame).jsonLine()
        let expected = expectedScan(line)
        #expect(expected != .unrecognised)
        #expect(FrameTimeScan(line: line) == expected, "\(line)")
        if case .contactExpectingForce = expected { contact += 1 }
    }
    #expect(contact > 100)
}

/// Lines penkitd sent its client in the VM run of the late-pressure scenario (a contact frame
/// expecting force, and a hover frame).
@Test func frameTimeScanReadsALiveContactFrame() {
    let contact = #"{"type":"frame","tool":{"type":"pen","serial":2575305619,"id":2050},"stroke":45,"sample":{"t":388362132,"x":30.015,"y":26.825,"force":0.24025653675382339,"azimuth":5.83479975374019,"altitude":1.0615810909874954,"roll":0.0,"distance":0.0,"estimated":["force","roll"],"expecting":["force"],"updateIndex":19},"predicted":[{"t":388367272,"x":30.063001165117164,"y":26.83639553813142,"force":0.24025653675382339,"azimuth":5.83479975374019,"altitude":1.0615810909874954,"roll":0.0,"distance":0.0,"estimated":["force","roll"],"expecting":[]},{"t":388372413,"x":30.111003388068717,"y":26.847567682199642,"force":0.24025653675382339,"azimuth":5.83479975374019,"altitude":1.0615810909874954,"roll":0.0,"distance":0.0,"estimated":["force","roll"],"expecting":[]},{"t":388377553,"x":30.15904185344503,"y":26.858520351199562,"force":0.24025653675382339,"azimuth":5.83479975374019,"altitude":1.0615810909874954,"roll":0.0,"distance":0.0,"estimated":["force","roll"],"expecting":[]},{"t":388378132,"x":30.164454525406754,"y":26.85974016485966,"force":0.24025653675382339,"azimuth":5.83479975374019,"altitude":1.0615810909874954,"roll":0.0,"distance":0.0,"estimated":["force","roll"],"expecting":[]}],"expectedError":0.17325964815899197,"liftProbability":0.02945085264077347}"#
    let hover = #"{"type":"frame","tool":{"type":"pen","serial":2575305619,"id":2050},"sample":{"t":388076914,"x":22.44,"y":23.4,"force":0.0,"azimuth":5.960295833121673,"altitude":0.7264117803984019,"roll":0.0,"distance":0.9206349206349206,"estimated":["roll"],"expecting":[]},"predicted":[{"t":388084914,"x":22.44,"y":23.4,"force":0.0,"azimuth":5.960295833121673,"altitude":0.7264117803984019,"roll":0.0,"distance":0.9206349206349206,"estimated":["roll"],"expecting":[]}],"expectedError":0.08281241629711569}"#
    #expect(FrameTimeScan(line: contact) == .contactExpectingForce(time: 388362132))
    #expect(expectedScan(contact) == .contactExpectingForce(time: 388362132))
    #expect(FrameTimeScan(line: hover) == .otherFrame)
    #expect(expectedScan(hover) == .otherFrame)
}

@Test func frameTimeScanLeavesEverythingElseToTheFullDecode() {
    let lines = [
        #"{"type":"update","stroke":45,"updateIndex":19,"updated":[],"expired":["force"],"sample":{"t":1,"x":0,"y":0,"force":0,"azimuth":0,"altitude":0,"roll":0,"distance":0,"estimated":[],"expecting":["force"]}}"#,
        #"{"type":"hello","version":1}"#,
        // A frame laid out otherwise (spaces, keys reordered): the decoder's job.
        #"{"type": "frame", "stroke": 3, "sample": {"t": 5, "expecting": ["force"]}}"#,
        #"{"type":"frame","stroke":3,"sample":{"expecting":["force"],"t":5}}"#,
        #"{"type":"frame","stroke":3,"sample":{"t":99999999999999999999999,"expecting":["force"]}}"#,
        #"{"type":"frame","stroke":3,"sample":{"t":5,"expecting":["force"]"#,
        "",
    ]
    for line in lines { #expect(FrameTimeScan(line: line) == .unrecognised, "\(line)") }
}
