/// A command that was used correctly but could not do its work (no daemon, a trace with no
/// usable device, libinput refusing a device): exit status 1, where a usage error
/// (ArgumentParser's ValidationError) exits with 64 (EX_USAGE). Scripts can tell them apart.
struct RuntimeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
