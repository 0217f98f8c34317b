/// What a build of the toolkit is: its version and the commit it was built from.
public enum BuildInfo {
    /// The toolkit's version (semantic versioning; no release has been tagged yet).
    public static let version = "0.1.0"

    /// The commit this build was made from: 40 hex digits, `+dirty` when the code (Package.swift,
    /// Sources, Plugins) differed from it, or `unknown` when the package was not built from a git checkout.
    public static var commit: String { buildCommit }
}
