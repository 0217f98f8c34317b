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

        /// As `backoff presets` writes it: `source-read`, or `library-code` and the version.
        public var text: String {
            switch self {
            case .sourceRead: "source-read"
            case .codeRun(let version): "library-code \(version)"
            }
        }
    }

    /// The name `--preset` takes, e.g. `aws-sdk-standard`.
    public let name: String
    /// The library and setting it reproduces.
    public let library: String
    /// The policy after a transient failure (and after any failure, unless ``throttlingPolicy`` is set).
    public let policy: BackoffPolicy
    /// The policy after a throttling error, when the library backs off from it differently.
    public let throttlingPolicy: BackoffPolicy?
    /// The retry budget the library shares between the requests of one client, if it has one.
    public let budget: RetryBudget?
    /// What the library does with a server's `Retry-After`.
    public let retryAfterHandling: RetryAfterHandling
    /// The client-side rate limiter the library puts in front of every attempt (the AWS SDKs'
    /// adaptive mode, ``AdaptiveRateLimiter``), and who shares it; `nil` for none.
    public let adaptiveRateLimiter: AdaptiveRateLimiting?
    /// The hedge the library sends copies of a request with, if it hedges (``Hedging``); `nil` for none.
    public let hedging: Hedging?
    /// The file or specification read, with its version.
    public let source: String
    public let evidence: Evidence
    /// Where the library's behaviour and this model part, if anywhere.
    public let notes: String

    public var id: String { name }

    public init(
        name: String, library: String, policy: BackoffPolicy, throttlingPolicy: BackoffPolicy? = nil,
        budget: RetryBudget? = nil, retryAfterHandling: RetryAfterHandling = .ignore,
        adaptiveRateLimiter: AdaptiveRateLimiting? = nil, hedging: Hedging? = nil, source: String,
        evidence: Evidence = .sourceRead, notes: String
    ) {
        self.name = name
        self.library = library
        self.policy = policy
        self.throttlingPolicy = throttlingPolicy
        self.budget = budget
        self.retryAfterHandling = retryAfterHandling
        self.adaptiveRateLimiter = adaptiveRateLimiter
        self.hedging = hedging
        self.source = source
        self.evidence = evidence
        self.notes = notes
    }

    /// The policy the library follows after a failure of `kind`.
    public func policy(for kind: FailureKind) -> BackoffPolicy {
        kind == .throttling ? throttlingPolicy ?? policy : policy
    }

    /// The kinds of failure the library tells apart: both when it backs off from each differently.
    public var failureKinds: [FailureKind] { throttlingPolicy == nil ? [.transient] : FailureKind.allCases }

    /// This preset with the policy for `kind` as its ``policy``: what `--preset NAME --failure-kind
    /// KIND` starts from.
    public func answering(_ kind: FailureKind) -> Preset {
        Preset(
            name: name, library: library, policy: policy(for: kind), throttlingPolicy: nil, budget: budget,
            retryAfterHandling: retryAfterHandling, adaptiveRateLimiter: adaptiveRateLimiter, hedging: hedging,
            source: source, evidence: evidence, notes: notes)
    }

    /// The preset called `name`, if there is one.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }
}
