import FoundationEssentials
import PenKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Users and groups by name or number.
enum Identity {
    static func userID(_ nameOrID: String) -> uid_t? {
        if let n = UInt32(nameOrID) { return n }
        guard let pw = getpwnam(nameOrID) else { return nil }
        return pw.pointee.pw_uid
    }

    static func groupID(_ nameOrID: String) -> gid_t? {
        if let n = UInt32(nameOrID) { return n }
        guard let gr = getgrnam(nameOrID) else { return nil }
        return gr.pointee.gr_gid
    }

    /// Every group a running process holds (its gid plus the supplementary groups),
    /// read from /proc so it reflects the process; where /proc hides other users'
    /// processes (ProtectProc=invisible), from the user database instead.
    static func groups(ofProcess pid: Int32, uid: uid_t, primary: gid_t) -> Set<gid_t> {
        var result: Set<gid_t> = [primary]
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return result.union(groups(ofUser: uid, primary: primary))
        }
        for line in status.split(separator: "\n") where line.hasPrefix("Groups:") {
            for field in line.dropFirst("Groups:".count).split(separator: " ") {
                if let gid = UInt32(field.trimmingWhitespace()) { result.insert(gid) }
            }
        }
        return result
    }

    static func groups(ofUser uid: uid_t, primary: gid_t) -> Set<gid_t> {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return [primary] }
        var count: Int32 = 64
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &list, &count) < 0 {
            list = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primary, &list, &count) >= 0 else { return [primary] }
        }
        return Set(list.prefix(Int(count)))
    }
}
