import Foundation

/// The compositors' versions as dpkg knows them, to choose the curve formula their source has.
enum DesktopVersions {
    /// mutter's, from its common files' package (every mutter release has one).
    static func mutter() -> String? { packageVersion("mutter-common") ?? packageVersion("mutter") }

    /// KWin's (Plasma 5 and 6 both ship kwin-common).
    static func kwin() -> String? { packageVersion("kwin-common") ?? packageVersion("kwin-wayland") }

    /// The version without Debian's epoch ("4:6.3.4-1" → "6.3.4-1"); nil where there is no dpkg or package.
    static func packageVersion(_ package: String) -> String? {
        guard let version = DebianPackage.version(package) else { return nil }
        return version.firstIndex(of: ":").map { String(version[version.index(after: $0)...]) } ?? version
    }
}
