import BackoffPolicies

/// Reading `--jitter`: a list of mode names, each once, the parameterised ones with their parameter.
extension PolicyOptions {
    /// `--jitter`: names, or `all`, each once (the decorrelated modes with the default factor until
    /// the factor is known). `proportional:F`, `upward:F` and `additive:D` carry their parameter.
    @Sendable static func parseJitters(_ text: String) throws(InvalidValue) -> [Jitter] {
        if text == "all" { return Jitter.allModes }
        guard let names = ValueParser.list(text) else { throw InvalidValue() }
        var jitters: [Jitter] = []
        for name in names {
            let jitter = try JitterSpec.parse(name)
            guard !jitters.contains(jitter) else { throw InvalidValue("'\(name)' is listed twice") }
            jitters.append(jitter)
        }
        return jitters
    }
}
