import CLibinput
import Glibc
import PenInput

// libinput's C callbacks. They find their Swift owner through libinput's user data,
// which LibinputContext sets to its retained Callbacks object.

private func callbacks(_ userData: UnsafeMutableRawPointer?) -> LibinputContext.Callbacks? {
    userData.map { Unmanaged<LibinputContext.Callbacks>.fromOpaque($0).takeUnretainedValue() }
}

/// libinput_interface.open_restricted: returns a descriptor or a negative errno.
/// Read-only whatever libinput asks (it asks O_RDWR, for keyboard LEDs): penkit only reads tablets,
/// and the service gets read access only (the udev rule's MODE 0640 for its group, the unit's
/// `DeviceAllow=char-input r`), so a read-write open would be refused.
let openRestricted: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    path, flags, userData in
    guard let path else { return -EINVAL }
    let node = String(cString: path)
    let owner = callbacks(userData)
    if let owner, !owner.admit(node) { return -EACCES }
    let fd = open(path, (flags & ~O_ACCMODE) | O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return -errno }
    owner?.descriptors[node] = fd
    return fd
}

let closeRestricted: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { fd, userData in
    if let owner = callbacks(userData), let node = owner.descriptors.first(where: { $0.value == fd })?.key {
        owner.descriptors[node] = nil
    }
    close(fd)
}

/// The log handler is C varargs; the C typedef lets Swift format it with vsnprintf.
let logTrampoline: libinput_log_handler = { li, priority, format, args in
    guard let li, let format, let args, let callbacks = callbacks(libinput_get_user_data(li)) else { return }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let length = buffer.withUnsafeMutableBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, args) }
    }
    var message = String(decoding: buffer.prefix(max(0, min(Int(length), buffer.count - 1))), as: UTF8.self)
    while message.last == "\n" { message.removeLast() }
    callbacks.log(LibinputLogPriority(priority), message)
}
