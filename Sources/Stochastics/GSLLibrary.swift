internal import CGSL

/// The GNU Scientific Library this build runs on, for a run's provenance (`backoff --version`).
public enum GSLLibrary {
    /// The version of the GSL library linked at run time, e.g. `2.7.1`.
    public static var version: String { String(cString: cgsl_version()) }
}
