/// penkit's release version: the one place it is written. `penkit --version`, `penkitd --version`
/// and `hello` report it; debian/changelog's top entry and the release's git tag (`v` + it) must
/// match (a test checks the changelog).
public enum PenkitVersion {
    public static let string = "0.1.0"
}
