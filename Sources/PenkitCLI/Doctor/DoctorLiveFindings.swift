import PenKit

/// What `penkit doctor` says from penkitd's `status` answer: each tablet's pen now and its
/// report rate, and every setting in force with where it came from.
enum DoctorLiveFindings {
    static func live(_ facts: DoctorFacts) -> [DoctorFinding] {
        guard let daemon = facts.daemon else { return [] }
        guard let status = daemon.status else {
            return [DoctorFinding(level: .info, area: "live", subject: daemon.path,
                                  message: "this penkitd does not answer `status`, so its live figures and settings' origins are not known",
                                  fix: "upgrade penkitd to the version of this penkit (\(PenkitVersion.string))")]
        }
        return status.devices.compactMap { device -> DoctorFinding? in
            let info = daemon.devices.first { $0.id == device.device }
            // A pad alone has no pen to report on.
            if let info, info.geometry == nil { return nil }
            let subject = "\(device.source) (\(device.name))"
            let rate = device.reportRateHz.map { "reports at \(Int($0.rounded())) Hz" }
            var parts: [String] = []
            if device.proximity == "in" {
                let tool = device.tool.map { toolName($0, device.serial) } ?? "a tool"
                parts.append("\(tool) is in proximity, \(device.contact ? "touching" : "hovering")")
            } else {
                parts.append("no tool in proximity")
                if let age = device.lastReportAgeMilliseconds, device.reports > 0 {
                    parts.append("last report \(seconds(age)) ago")
                }
            }
            if let rate {
                parts.append(rate)
            } else if device.reports == 0 {
                parts.append("no report yet: bring the pen near the tablet to see its report rate")
            }
            parts.append("\(device.reports) report(s) since penkitd opened it")
            return DoctorFinding(level: .info, area: "live", subject: subject, message: "\(subject): " + parts.joined(separator: "; "))
        }
    }

    static func settings(_ facts: DoctorFacts) -> [DoctorFinding] {
        guard let status = facts.daemon?.status else { return [] }
        let file = status.configFile.map { " (config file \($0))" } ?? ""
        var out = [DoctorFinding(level: .info, area: "settings", subject: "penkitd",
                                 message: "penkitd's settings\(file): " + listed(status.settings))]
        for device in status.devices {
            let subject = "\(device.source) (\(device.name))"
            if facts.daemon?.devices.first(where: { $0.id == device.device })?.geometry != nil {
                out.append(DoctorFinding(level: .info, area: "settings", subject: subject,
                                         message: "mapping of \(subject): " + listed(device.settings)))
            }
            for tool in device.tools {
                let name = toolName(tool.type, tool.serial)
                out.append(DoctorFinding(level: .info, area: "settings", subject: "\(subject) \(name)",
                                         message: "\(name) on \(device.source): " + listed(tool.settings)))
            }
        }
        return out
    }

    /// "key value (origin), …".
    static func listed(_ settings: [StatusMessage.Setting]) -> String {
        settings.map { "\($0.key) \($0.value) (\($0.origin))" }.joined(separator: ", ")
    }

    static func toolName(_ type: ToolType, _ serial: UInt64?) -> String {
        guard let serial, serial != 0 else { return "the \(type.rawValue)" }
        return "the \(type.rawValue) serial 0x\(String(serial, radix: 16))"
    }

    static func seconds(_ milliseconds: Double) -> String {
        milliseconds < 1000 ? "\(Int(milliseconds)) ms" : "\((milliseconds / 100).rounded() / 10) s"
    }
}
