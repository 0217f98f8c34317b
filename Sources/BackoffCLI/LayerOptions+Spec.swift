import BackoffPolicies
import RetrySimulation

extension LayerOptions {
    /// A layer as `--layer` takes it: `layer(spec(l), ...)` is `l`. Its policy is written through
    /// the policy options' own declarations (each option as a preset would set it), then its
    /// limits, per-try timeout, behaviours (`key=value` each) and hedge (`--hedge`'s keys with
    /// their `hedge-` prefix).
    static func spec(_ layer: ServiceLayer) -> String {
        let asPreset = Preset(name: layer.name, library: "", policy: layer.policy, source: "", notes: "")
        var pairs = ["\(name.name)=\(layer.name)"]
        for option in PolicyOptions.specs(defaultJitter: layer.policy.jitter.name) {
            guard let text = option.presetText?(asPreset), !text.isEmpty else { continue }
            pairs.append("\(option.name)=\(text)")
        }
        if let budget = layer.limits.budget {
            pairs.append("\(ScenarioOptions.budget.name)=\(BudgetSpec.print(budget))")
        }
        if let breaker = layer.limits.breaker {
            pairs.append("\(ScenarioOptions.breaker.name)=\(BreakerSpec.print(breaker))")
        }
        if let timeout = layer.timeout { pairs.append("\(Self.timeout.name)=\(timeout.unitText)") }
        pairs += layer.settings.map(\.description)
        if let hedging = layer.hedging {
            pairs += HedgeSpec.print(hedging).split(separator: ":").dropFirst().map { "hedge-\($0)" }
        }
        return pairs.joined(separator: ",")
    }
}
