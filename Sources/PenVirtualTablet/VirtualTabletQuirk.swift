/// The libinput quirk penkit installs for its virtual tablets, and the one penkitd's own libinput
/// context uses to read tablets raw while it feeds a virtual tablet.
package enum VirtualTabletQuirk {
    /// Installed in libinput's system quirks directory by the package (`make install` too). It
    /// matches penkit's virtual tablets alone, by name: a real tablet's settings are untouched.
    package static let fileName = "70-penkit-virtual-tablet.quirks"

    /// - `AttrTabletSmoothing=0`: penkit filtered the positions already (JitterFilter); libinput's
    ///   4-sample mean would add 1.5 reports of lag on top.
    /// - `AttrPressureRange=2:1`: contact is decided by penkit (libinput's tip, or the tool's
    ///   `tip-threshold`) and written as pressure ≥ 2 of 65535; libinput's default thresholds (5 %
    ///   and 1 % of the range) would decide it a second time, and rescale the force.
    package static let contents = """
        # penkit: penkit's virtual tablets (penkitd's `virtual-tablet = on`) carry positions penkit
        # has filtered already and contact penkit has decided: libinput must not smooth them or
        # apply its own pressure thresholds again. Matches no real device.
        [penkit virtual tablet]
        MatchUdevType=tablet
        MatchName=\(VirtualTabletIdentity.namePrefix)*
        AttrTabletSmoothing=0
        AttrPressureRange=2:1

        """

    /// The quirk file penkitd adds to a private copy of the system's quirks while a virtual tablet
    /// is on: it reads the real tablets without libinput's smoothing (what the virtual tablet
    /// carries is the real pen, filtered by penkit once). Sorted after every system file and after
    /// the local override's copy, so it wins.
    package static let rawInputFileName = "99-penkit-read-tablets-raw.quirks"
    package static let rawInputContents = """
        # penkitd (virtual-tablet = on): read tablets without libinput's 4-sample smoothing.
        # A private copy of the quirks, for penkitd's own libinput context alone.
        [penkitd reads tablets raw]
        MatchUdevType=tablet
        AttrTabletSmoothing=0

        """
}
