import BackoffPolicies

/// The value a command's policy starts from before the options given apply to it: a preset, or a
/// gRPC service config read as one (`--preset`, `--grpc-service-config`).
///
/// An option not given takes the start's value where the start sets it (each option declares how,
/// with ``Option/setByPreset(_:text:)``), and its default otherwise. A given `--max-attempts`
/// replaces the start's retry count however the start counts it, and so does `--max-retries`; the
/// start's cap rule stays unless `--cap-mode` is given or the jitter given does not take it.
struct PolicyStart {
    let preset: Preset
    /// How messages name the start: `--preset envoy-default`, `--grpc-service-config`.
    let origin: String
    /// Where one option's value comes from, when more precise than `origin` (a service config's
    /// JSON paths), by option name.
    let origins: [String: String]
    /// Remarks for stderr: the method config used, a clamped maxAttempts.
    let remarks: [String]

    init(preset: Preset, origin: String, origins: [String: String] = [:], remarks: [String] = []) {
        self.preset = preset
        self.origin = origin
        self.origins = origins
        self.remarks = remarks
    }

    /// Where the value of the option named `name` comes from, as a message says it.
    func origin(of name: String) -> String { origins[name] ?? origin }

    /// Every option a start can set, whichever command reads it: the policy's, and the limits and
    /// Retry-After handling that only `simulate` takes (another command leaves those out, saying so).
    static var settable: [OptionSpec] {
        PolicyOptions.specs(defaultJitter: "") + [
            ScenarioOptions.budget.spec, ScenarioOptions.retryAfter.spec, ScenarioOptions.throttle.spec,
            ScenarioOptions.hedge.spec,
        ]
    }
}
