import Glibc

/// What a config path names, looked at before it is read. penkitd reads its config only from a
/// regular file: a FIFO would hold the start, and every SIGHUP reload, until some writer came,
/// and a directory, socket or device is a mistake better named than reported as a read error.
/// The null device is the one exception: `--config /dev/null` is the usual "no config".
enum ConfigFileType {
    /// The file's status, following symlinks (`/dev/fd/N` of a process substitution is one).
    static func status(_ path: String) -> Result<stat, Errno> {
        var st = stat()
        return stat(path, &st) == 0 ? .success(st) : .failure(Errno(errno))
    }

    /// nil for a regular file or the null device; otherwise what the file is, as "a FIFO".
    static func refusal(_ st: stat) -> String? {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFBLK: return "a block device"
        case S_IFCHR: return isNullDevice(st) ? nil : "a character device"
        default: return "not a file"
        }
    }

    /// Compared with /dev/null's own status rather than a device number written down here.
    private static func isNullDevice(_ st: stat) -> Bool {
        guard case .success(let null) = status("/dev/null"), null.st_mode & S_IFMT == S_IFCHR else { return false }
        return st.st_rdev == null.st_rdev
    }

    struct Errno: Error {
        var code: Int32
        init(_ code: Int32) { self.code = code }
    }
}
