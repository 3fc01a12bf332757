import PenInput
import PenKit

/// What `penkit doctor` found on this machine, gathered once (`DoctorFacts.gather`), so that the
/// findings (`DoctorFindings`) are a pure function of it and can be checked on any set-up.
struct DoctorFacts: Sendable {
    struct SocketAttempt: Sendable, Hashable {
        var path: String
        /// nil: it answered.
        var failure: String?
        /// The socket file's owner and mode, when it exists.
        var group: String?
        var mode: UInt32?
    }

    struct Daemon: Sendable {
        var path: String
        var serverVersion: String
        var devices: [DeviceInfo]
        var settings: [String: String]
        /// Its answer to `status`: live figures per tablet, settings with origins; nil from a
        /// penkitd that does not know the request.
        var status: StatusMessage?
    }

    struct Node: Sendable {
        var devnode: String
        var name: String
        /// udev's ID_INPUT_* kinds (TABLET, TABLET_PAD, KEYBOARD, MOUSE, …).
        var kinds: Set<String>
        var mode: UInt32
        var group: String
        var readable: Bool
        /// What the node declares, when it could be read.
        var description: DeviceDescription?
        var quirks: Quirks?
        /// libwacom's model name, when it knows the tablet.
        var libwacomModel: String?
        /// The styli libwacom lists for it ("NAME (0xID)").
        var libwacomStyli: [String] = []
        /// Other processes that hold the node open (those this user may see).
        var holders: [String]
    }

    struct DesktopSetting: Sendable, Hashable {
        /// "GNOME" or "KDE".
        var desktop: String
        /// What the settings are keyed by (vendor:product, or the name).
        var key: String
        var setting: String
        var value: String
    }

    var user: String
    var groups: [String]
    var attempts: [SocketAttempt]
    var daemon: Daemon?
    var nodes: [Node]
    var libinputVersion: String?
    /// Where penkit's virtual-tablet quirk is installed, if it is.
    var virtualTabletQuirk: String?
    var desktopSettings: [DesktopSetting]
}
