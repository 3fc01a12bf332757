import Foundation
import PenKit
import PenTestSupport
import Testing

/// PenKit's client reads every line a real penkitd sends as a typed message (never `.unknown`),
/// and the typed ones that have an encoder write the same bytes back: nothing is lost in the
/// client's types. The actions come from a real trace's barrel buttons and a config.
@Suite(.serialized)
struct TypedMessageTests {
    @Test func everyLineOfARealSessionIsTypedAndActionsWriteBackByteForByte() throws {
        let lines = try ActionSchemaTests.cintiqSessionWithActions(["frames", "updates", "strokes", "buttons", "devices", "actions"])
        var actions = 0, types: Set<String> = []
        for line in lines {
            guard let message = PenMessage(line: line) else { Issue.record("not decoded: \(line)"); continue }
            types.insert(type(line))
            switch message {
            case .unknown(let type, _): Issue.record("\(type) read as unknown: \(line)")
            case .action(let a):
                actions += 1
                #expect(a.jsonLine() == line)
            case .padMotionAction(let a): #expect(a.jsonLine() == line)
            case .pad(let p): #expect(p.jsonLine() == line)
            case .pressureSource(let p): #expect(p.jsonLine() == line)
            case .dropped(let d): #expect(d.jsonLine() == line)
            default: break
            }
        }
        #expect(actions == lines.filter { type($0) == "action" }.count)
        #expect(actions >= 3, "the trace's barrel buttons made \(actions) actions")
        #expect(types.isSuperset(of: ["hello", "subscribed", "frame", "stroke", "button", "action"]), "\(types)")
    }
}

/// The fixture the Python client's tests read too: one real line of each kind (its README says
/// where each came from), valid against the schema, each read as its typed message.
@Suite struct TypedMessageFixtureTests {
    static let lines: [String] = {
        let path = repositoryRoot + "/Tests/Fixtures/messages/session.jsonl"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    @Test func everyFixtureLineIsValidAndTyped() throws {
        #expect(Self.lines.count >= 15)
        let (status, report) = try ProtocolSchemaCheck.run(Self.lines)
        #expect(status == 0, "\(report)")
        var kinds: Set<String> = []
        for line in Self.lines {
            let message = try #require(PenMessage(line: line), "not decoded: \(line)")
            switch message {
            case .unknown(let type, _): Issue.record("\(type) read as unknown")
            case .pad(let p): kinds.insert("pad"); #expect(p.jsonLine() == line)
            case .action(let a): kinds.insert("action"); #expect(a.jsonLine() == line)
            case .pressureSource(let p): kinds.insert("pressure-source"); #expect(p.jsonLine() == line)
            default: kinds.insert(type(line))
            }
        }
        #expect(kinds.isSuperset(of: ["pad", "action", "pressure-source", "hello", "frame", "stroke", "device", "shutdown"]), "\(kinds)")
    }
}
