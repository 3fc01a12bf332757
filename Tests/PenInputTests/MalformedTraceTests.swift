import Foundation
import Testing
@testable import PenInput
import PenInputRecord

/// Every file in Tests/Fixtures/malformed/ must fail with a TraceError naming the line at fault
/// (worked out by hand from how each file was made) and saying what is wrong.
@Suite struct MalformedTraceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let fragment: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "truncated-event-line.evemu", line: 21, fragment: "needs 4 fields"),
        Case(file: "garbled-event-time.evemu", line: 21, fragment: "is not SECONDS.MICROSECONDS"),
        Case(file: "code-above-type-max.evemu", line: 21, fragment: "above the type's maximum 0x3f"),
        Case(file: "type-above-ev-max.evemu", line: 21, fragment: "above EV_MAX"),
        Case(file: "time-backwards.evemu", line: 22, fragment: "time goes backwards: 0.999000 s after 1.008000 s on line 21"),
        Case(file: "abs-event-without-absinfo.evemu", line: 21, fragment: "code 0x19, an axis with no absinfo"),
        Case(file: "declared-axis-without-absinfo.evemu", line: 13, fragment: "0x18 is declared but has no absinfo"),
        Case(file: "nul-byte.evemu", line: 18, fragment: "NUL byte"),
        Case(file: "invalid-utf8.evemu", line: 3, fragment: "invalid UTF-8"),
        Case(file: "binary-garbage.evemu", line: 1, fragment: "binary data"),
        Case(file: "absurdly-long-line.evemu", line: 17, fragment: "line longer than 65536 bytes"),
        Case(file: "description-after-events.evemu", line: 21, fragment: "after the first event"),
        Case(file: "unrecognised-line.evemu", line: 21, fragment: "unrecognised line"),
        Case(file: "unsupported-version.evemu", line: 1, fragment: "unsupported EVEMU version 2.0"),
        Case(file: "value-overflow.evemu", line: 21, fragment: "`4294967296` is not a 32-bit decimal integer"),
        Case(file: "absinfo-min-above-max.evemu", line: 16, fragment: "minimum 2047 above maximum 0"),
        Case(file: "events-without-description.evemu", line: 2, fragment: "event before any device description"),
        Case(file: "absinfo-too-few-fields.evemu", line: 15, fragment: "found 3 fields"),
        Case(file: "bitmask-not-hex.evemu", line: 12, fragment: "`zz` is not a hex byte"),
        Case(file: "comments-only.evemu", line: 0, fragment: "no device description"),
        // libyaml reports the unclosed flow sequence where it finds the next `- [` (line 27).
        Case(file: "yaml-syntax-error.yml", line: 27, fragment: "invalid YAML"),
        Case(file: "yaml-version-2.yml", line: 2, fragment: "unsupported libinput record version `2`"),
        Case(file: "yaml-no-devices.yml", line: 2, fragment: "no `devices:` list"),
        Case(file: "yaml-event-too-short.yml", line: 26, fragment: "needs 5 numbers, found 4"),
        Case(file: "yaml-code-above-type-max.yml", line: 26, fragment: "above the type's maximum 0x3f"),
        Case(file: "yaml-time-backwards.yml", line: 27, fragment: "time goes backwards: 0.007000 s after 0.008000 s on line 26"),
        Case(file: "yaml-abs-event-without-absinfo.yml", line: 26, fragment: "code 0x19, an axis with no absinfo"),
        Case(file: "yaml-usec-out-of-range.yml", line: 26, fragment: "usec 1000000 is not below 1000000"),
        // Yams' own Int parsing reads base-60 `1:2:3` and traps on overflow; penkit's must not.
        Case(file: "yaml-sexagesimal-overflow.yml", line: 26, fragment: "`1:2:3:4:5:6:7:8:9:10:11:12` is not an integer"),
        Case(file: "yaml-deep-nesting.yml", line: 26, fragment: "brackets deep"),
        Case(file: "yaml-invalid-utf8.yml", line: 9, fragment: "invalid UTF-8"),
        Case(file: "yaml-not-a-mapping.yml", line: 2, fragment: "expected a YAML mapping"),
        Case(file: "yaml-absinfo-wrong-count.yml", line: 18, fragment: "needs 5 numbers, found 4"),
        Case(file: "yaml-unknown-event-type.yml", line: 15, fragment: "`40` is not an event type"),
        Case(file: "yaml-declared-axis-without-absinfo.yml", line: 14, fragment: "0x18 is declared but has no absinfo"),
    ]

    @Test(arguments: cases)
    func malformedFileFailsAtItsLine(_ c: Case) {
        let path = TraceFixtures.fixture("malformed/\(c.file)")
        do {
            _ = try TraceFile.load(path: path, readers: .all)
            Issue.record("\(c.file) was accepted")
        } catch let error as TraceError {
            #expect(error.file == path)
            #expect(error.line == c.line, "\(error)")
            #expect(error.message.contains(c.fragment), "\(error)")
        } catch {
            Issue.record("\(c.file): not a TraceError: \(error)")
        }
    }

    /// A YAML bomb: one 1000-event frame aliased by 1000 more items, a million events from 55 kB.
    @Test func aliasBombIsRefusedWhileExpanding() throws {
        let path = TraceFixtures.fixture("malformed/yaml-alias-bomb.yml")
        let lines = try TraceFixtures.lines(path)
        do {
            _ = try TraceFile.load(path: path, readers: .all)
            Issue.record("the alias bomb was accepted")
        } catch let error as TraceError {
            #expect(error.message.contains("YAML bomb"), "\(error)")
            #expect(error.line >= 1 && error.line <= lines.count && lines[error.line - 1].contains("*frame"), "\(error)")
        }
    }

    @Test func everyMalformedFileHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TraceFixtures.fixture("malformed"))
        let covered = Set(Self.cases.map(\.file) + ["yaml-alias-bomb.yml"])
        #expect(Set(files) == covered)
    }

    @Test func missingFileAndDirectoryAreErrors() {
        #expect(throws: TraceError.self) { try TraceFile.load(path: TraceFixtures.fixture("malformed/no-such-file.evemu"), readers: .all) }
        do {
            _ = try TraceFile.load(path: TraceFixtures.fixture("malformed"), readers: .all)
            Issue.record("a directory was accepted")
        } catch let error as TraceError {
            #expect(error.message == "not a regular file (a directory)", "\(error)")
        } catch {
            Issue.record("not a TraceError: \(error)")
        }
    }

    /// An endless pipe (its writer never stops): reading stops at the size limit instead of
    /// growing without bound. (An endless device, /dev/zero, is refused at once: TraceFifoTests.)
    @Test func anEndlessPipeStopsAtTheLimit() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writeEnd = ends[1]
        let writer = Thread {
            // Once the reader gives up, a write fails with EPIPE: the signal is blocked on this thread.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let zeros = [UInt8](repeating: 0, count: 1 << 16)
            while zeros.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        do {
            _ = try BoundedFileReader.read(path: "/proc/self/fd/\(ends[0])", limit: 1 << 20)
            Issue.record("an endless pipe was read to its end")
        } catch let error as TraceError {
            #expect(error.message.contains("larger than 1 MiB"), "\(error)")
        }
    }

    @Test func emptyInputIsAnError() {
        #expect(throws: TraceError(file: "empty", line: 0, message: "empty file (no lines but comments): not a trace")) {
            try TraceFile.parse(bytes: [], name: "empty", readers: .all)
        }
    }
}
