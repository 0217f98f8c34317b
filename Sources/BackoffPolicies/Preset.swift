/// A retry policy as a library ships it by default: the ``BackoffPolicy`` and the shared limits
/// that reproduce it, with the source it was read from and where the model departs from it.
///
/// A preset is a value an app can use as it is (`Retrier(preset: .awsSDKStandard)` in `Retrying`)
/// or start from (`Preset.envoyDefault.policy`); `backoff --preset NAME` starts from the same value
/// and applies the options given to it. ``all`` lists the presets; ``named(_:)`` finds one.
public struct Preset: Hashable, Sendable, Identifiable {
    /// How well a preset is known to match its library.
    public enum Evidence: Hashable, Sendable {
        /// Written from reading the library's source (the version is in ``Preset/source``); not run.
        case sourceRead
        /// Compared with the library's own code, run at `version`, in this project's tests.
        case codeRun(version: String)
    }

    /// The name `--preset` takes, e.g. `aws-sdk-standard`.
    public let name: String
    /// The library and setting it reproduces.
    public let library: String
    public let policy: BackoffPolicy
    /// The retry budget the library shares between the requests of one client, if it has one.
    public let budget: RetryBudget?
    /// What the library does with a server's `Retry-After`.
    public let retryAfterHandling: RetryAfterHandling
    /// The file or specification read, with its version.
    public let source: String
    public let evidence: Evidence
    /// Where the library's behaviour and this model part, if anywhere.
    public let notes: String

    public var id: String { name }

    public init(
        name: String, library: String, policy: BackoffPolicy, budget: RetryBudget? = nil,
        retryAfterHandling: RetryAfterHandling = .ignore, source: String, evidence: Evidence = .sourceRead,
        notes: String
    ) {
        self.name = name
        self.library = library
        self.policy = policy
        self.budget = budget
        self.retryAfterHandling = retryAfterHandling
        self.source = source
        self.evidence = evidence
        self.notes = notes
    }

    /// The preset called `name`, if there is one.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }
}
