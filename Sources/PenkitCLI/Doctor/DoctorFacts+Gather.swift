import Foundation
import Glibc
import PenInput
import PenInputLinux
import PenKit
import PenVirtualTablet

extension DoctorFacts {
    /// Looks at this machine as this user sees it: nothing is changed, and nothing needs root
    /// (what root alone could read is reported as not readable).
    static func gather(socket: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async -> DoctorFacts {
        let (user, groups) = currentUser()
        var attempts: [SocketAttempt] = []
        var daemon: Daemon?
        for path in socket.map({ [$0] }) ?? DaemonDiscovery.candidates(environment: environment) {
            var attempt = SocketAttempt(path: path)
            var st = stat()
            if stat(path, &st) == 0 {
                attempt.group = groupName(st.st_gid)
                attempt.mode = st.st_mode & 0o7777
            }
            do {
                let client = try PenKitClient(path: path)
                daemon = try await hello(from: client, path: path)
                client.disconnect()
            } catch let error as PenKitClient.Error {
                attempt.failure = error.reason ?? error.description
            } catch {
                attempt.failure = "\(error)"
            }
            attempts.append(attempt)
            if daemon != nil { break }
        }
        let holders = openHolders()
        let nodes = UdevDevices.inputNodes().map { node -> Node in
            var st = stat()
            _ = stat(node.devnode, &st)
            let description = (node.kinds.contains("TABLET") || node.kinds.contains("TABLET_PAD"))
                && !node.kinds.contains("KEYBOARD") ? DeviceDescription.read(devnode: node.devnode) : nil
            return Node(devnode: node.devnode, name: node.name, kinds: node.kinds, mode: st.st_mode, group: groupName(st.st_gid),
                        readable: access(node.devnode, R_OK) == 0, description: description,
                        quirks: description.map { Quirks.forTablet($0) },
                        libwacomModel: description.flatMap { LibwacomDatabase.installed?.model(of: $0)?.name },
                        libwacomStyli: description.map { LibwacomDatabase.installed?.styli(of: $0) ?? [] } ?? [],
                        holders: holders[node.devnode] ?? [])
        }
        let quirk = ["/usr/share/libinput/\(VirtualTabletQuirk.fileName)", "/etc/libinput/\(VirtualTabletQuirk.fileName)"]
            .first { FileManager.default.fileExists(atPath: $0) }
        return DoctorFacts(user: user, groups: groups, attempts: attempts, daemon: daemon, nodes: nodes,
                           libinputVersion: packageVersion("libinput10"), virtualTabletQuirk: quirk,
                           desktopSettings: kdeSettings(environment: environment)
                               + gnomeSettings(tablets: ["0000:0000"] + (daemon?.devices ?? []).map {
                                   DesktopSettingsIDs.hex4($0.vendor) + ":" + DesktopSettingsIDs.hex4($0.product)
                               }))
    }

    /// The daemon's hello, then its answer to `status` (an older penkitd answers that with an
    /// error, which leaves `status` nil).
    private static func hello(from client: PenKitClient, path: String) async throws -> Daemon? {
        var daemon: Daemon?
        for try await line in client.lines {
            guard let message = PenMessage(line: line.text) else { continue }
            if case .hello(let hello) = message {
                daemon = Daemon(path: path, serverVersion: hello.serverVersion.isEmpty ? "?" : hello.serverVersion,
                                devices: hello.devices, settings: hello.settings)
                try client.send(StatusRequest().jsonLine())
                continue
            }
            if case .status(let status) = message {
                daemon?.status = status
                return daemon
            }
            if case .error(let code, let text, _) = message {
                if daemon != nil { return daemon }
                throw PenKitClient.Error(description: "\(code): \(text)", reason: text)
            }
        }
        return daemon
    }

    private static func currentUser() -> (String, [String]) {
        let name = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(getuid())"
        var ids = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(ids.count), &ids)
        let groups = (count > 0 ? Array(ids.prefix(Int(count))) : []).map(groupName)
        return (name, groups)
    }

    static func groupName(_ gid: gid_t) -> String {
        getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(gid)"
    }

    /// Which processes hold which /dev/input nodes open, as far as /proc lets this user see.
    private static func openHolders() -> [String: [String]] {
        var holders: [String: [String]] = [:]
        let me = getpid()
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil && Int32(pid) != me {
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            for fd in fds {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                      target.hasPrefix("/dev/input/event") else { continue }
                let holder = "\(command) (pid \(pid))"
                if holders[target]?.contains(holder) != true { holders[target, default: []].append(holder) }
            }
        }
        return holders
    }

    /// The installed version of a Debian package (DebianPackage), for the facts' shorter name.
    private static func packageVersion(_ package: String) -> String? { DebianPackage.version(package) }

    /// KDE keeps tablet settings in kcminputrc, in groups `[Libinput][vendor][product][name]`.
    static func kdeSettings(environment: [String: String]) -> [DesktopSetting] {
        let config = environment["XDG_CONFIG_HOME"] ?? ((environment["HOME"] ?? "") + "/.config")
        guard let text = try? String(contentsOfFile: config + "/kcminputrc", encoding: .utf8) else { return [] }
        return kdeSettings(text)
    }

    /// The tablet settings in a kcminputrc's text that change what a tablet delivers.
    static func kdeSettings(_ text: String) -> [DesktopSetting] {
        let keys = ["TabletToolPressureCurve", "InputArea", "Orientation", "LeftHanded", "OutputName"]
        var out: [DesktopSetting] = []
        var group: [String] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                group = line.split(separator: "]").map { String($0.dropFirst()) }
                continue
            }
            guard group.first == "Libinput", group.count >= 4, let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            guard keys.contains(key) else { continue }
            out.append(DesktopSetting(desktop: "KDE", key: group[3], setting: key, value: value))
        }
        return out
    }

    /// GNOME's settings for the virtual tablet (0000:0000) and the real tablets penkitd has,
    /// through gsettings when it is there.
    static func gnomeSettings(tablets: [String] = ["0000:0000"]) -> [DesktopSetting] {
        let gsettings = ["/usr/bin/gsettings", "/bin/gsettings"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gsettings else { return [] }
        var out: [DesktopSetting] = []
        for tablet in Set(tablets).sorted() {
            out += gnomeSettings(tablet, gsettings: gsettings)
        }
        return out
    }

    private static func gnomeSettings(_ tablet: String, gsettings: String) -> [DesktopSetting] {
        let schema = "org.gnome.desktop.peripherals.tablet:/org/gnome/desktop/peripherals/tablets/\(tablet)/"
        var out: [DesktopSetting] = []
        for key in ["area", "mapping", "left-handed", "output"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: gsettings)
            process.arguments = ["get", schema, key]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return out }
            process.waitUntilExit()
            let value = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard process.terminationStatus == 0 else { continue }
            let defaults = ["[0.0, 0.0, 0.0, 0.0]", "'absolute'", "false", "['', '', '']", "@as []"]
            if !value.isEmpty && !defaults.contains(value) {
                out.append(DesktopSetting(desktop: "GNOME", key: tablet, setting: key, value: value))
            }
        }
        return out
    }
}
