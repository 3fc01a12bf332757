import ArgumentParser
import Foundation
import PenKit

/// `penkit doctor`: the set-up in plain sentences: the daemon and why it answers or not, the
/// kernel's tablets and which penkitd reads (and why not the others), libinput's quirks for
/// each, the virtual tablet and desktop settings that would act twice. Each problem names its fix.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain the set-up: penkitd, the tablets, libinput's quirks, the virtual tablet, desktop settings."
    )

    @Option(help: "penkitd's socket (default: the discovery order of every penkit client).")
    var socket: String?

    @Flag(help: "One JSON object: the findings, each with level, area, subject, message and fix.")
    var json = false

    func run() async throws {
        let facts = await DoctorFacts.gather(socket: socket)
        let findings = DoctorFindings.findings(facts)
        if json {
            let objects = findings.map { f -> [String: Any] in
                var o: [String: Any] = ["level": f.level.rawValue, "area": f.area, "subject": f.subject, "message": f.message]
                if let fix = f.fix { o["fix"] = fix }
                return o
            }
            var top: [String: Any] = ["user": facts.user, "findings": objects,
                                      "problems": findings.filter { $0.level == .problem }.count]
            // penkitd's own answer, whole, for scripts that want the figures rather than sentences.
            if let status = facts.daemon?.status {
                top["status"] = try JSONSerialization.jsonObject(with: Data(status.jsonLine().utf8))
            }
            let data = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for f in findings {
            print("\(Self.mark(f.level)) \(f.message)")
            if let fix = f.fix { print("    fix: \(fix)") }
        }
        let problems = findings.filter { $0.level == .problem }.count
        print(problems == 0 ? "no problems found" : "\(problems) problem(s) found")
    }

    static func mark(_ level: DoctorFinding.Level) -> String {
        switch level {
        case .ok: "ok     "
        case .info: "info   "
        case .warning: "warning"
        case .problem: "PROBLEM"
        }
    }
}
