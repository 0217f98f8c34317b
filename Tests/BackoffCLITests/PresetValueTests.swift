import BackoffPolicies
import Foundation
import RetrySimulation
import Testing

@testable import BackoffCLI

/// Presets and service configs are values: the command line starts from them and applies the
/// options given, and what it shows of them reads back as the same value.
@Suite struct PresetValueTests {
    /// Every budget, written as `--budget` text, parses back to itself (the presets table and the
    /// left-out warnings show budgets this way).
    @Test(arguments: [
        RetryBudget.quota(.awsStandard),
        .quota(try! RetryQuota(maximum: 500, retryCost: 14, timeoutRetryCost: 5)),
        .tokenBucket(try! TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)),
        .ratio(try! RatioBudget(percentCanRetry: 0.2, minRetriesPerSecond: 5, window: .seconds(30))),
        .concurrency(try! ConcurrencyBudget(budgetPercent: 0, minRetryConcurrency: 3)),
    ])
    func aBudgetsTextReadsBackAsTheBudget(budget: RetryBudget) throws {
        let text = BudgetSpec.print(budget)
        #expect(try BudgetSpec.parse(text) == budget, "\(text)")
    }

    @Test func theStandardQuotaIsWrittenByItsName() {
        #expect(BudgetSpec.print(.quota(.awsStandard)) == "aws-quota")
        #expect(
            BudgetSpec.print(.quota(try! RetryQuota(maximum: 500, retryCost: 14, timeoutRetryCost: 5)))
                == "aws-quota:cost=14:timeout-cost=5")
    }

    /// A preset on the command line is the preset's value: the same policy, field for field.
    @Test(arguments: Preset.all)
    func aPresetOnTheCommandLineIsThePresetsPolicy(preset: Preset) throws {
        let options = try ParsedOptions(
            command: FormulaCommand.name, specs: FormulaCommand.specs,
            tokens: ArgumentLexer.tokens(["--preset", preset.name]))
        let policies = try PolicyOptions(options, defaultJitter: FormulaCommand.defaultJitter).policies
        #expect(policies == [preset.policy])
    }

    /// A preset's hedge reaches simulate as the preset's value (Polly v8's: 2 copies, 2 s apart);
    /// --hedge given replaces it.
    @Test func aPresetsHedgeIsItsValue() throws {
        func hedging(_ arguments: [String]) throws -> Hedging? {
            let options = try ParsedOptions(
                command: "simulate", specs: SimulateCommand.specs, tokens: ArgumentLexer.tokens(arguments))
            return try options(ScenarioOptions.hedge) ?? nil
        }
        #expect(try hedging(["--preset", "polly-v8-hedging"]) == Preset.pollyV8Hedging.hedging)
        #expect(Preset.pollyV8Hedging.hedging == (try Hedging(delay: .seconds(2), copies: 2)))
        #expect(try hedging(["--preset", "polly-v8-hedging", "--hedge", "none"]) == nil)
        #expect(try hedging(["--preset", "aws-sdk-standard"]) == nil)
        // Finagle's: one backup at the p99, the loser interrupted (ThriftMux's idempotent(0.01)).
        #expect(try hedging(["--preset", "finagle-backup-requests"]) == (try Hedging(percentile: 0.99)))
        #expect(Preset.finagleBackupRequests.hedging?.maxExtraLoad.map { abs($0 - 0.01) < 1e-12 } == true)
        // Envoy's: a 100 ms per-try timeout, num_retries 1, the router's 25 ms / 250 ms backoff,
        // which is envoy-default's policy but for its attempts; and it round-trips through --hedge.
        let envoy = try #require(try hedging(["--preset", "envoy-hedge-on-per-try-timeout"]))
        #expect(envoy == (try Hedging(perTryTimeout: .milliseconds(100), copies: 2)))
        guard case .perTryTimeout(.milliseconds(100), let backoff) = envoy.rule else {
            Issue.record("envoy-hedge-on-per-try-timeout's rule is \(envoy.rule)")
            return
        }
        let router = Preset.envoyDefault.policy
        #expect(
            backoff.base == router.base && backoff.cap == router.cap && backoff.jitter == router.jitter
                && backoff.capMode == router.capMode && backoff.granularity == router.granularity)
        #expect(try hedging(["--hedge", HedgeSpec.print(envoy)]) == envoy)
        #expect(
            try hedging(["--hedge", "on:per-try-timeout=50ms:max-attempts=3:backoff-base=10ms:backoff-max=40ms"])
                == (try Hedging(
                    perTryTimeout: .milliseconds(50), copies: 3, backoffBase: .milliseconds(10),
                    backoffMax: .milliseconds(40))))
    }

    /// Options given replace the preset's fields; the cap rule stays when the jitter given takes it.
    @Test func givenOptionsApplyToThePresetsValue() throws {
        func policy(_ arguments: [String]) throws -> BackoffPolicy {
            let options = try ParsedOptions(
                command: FormulaCommand.name, specs: FormulaCommand.specs, tokens: ArgumentLexer.tokens(arguments))
            return try PolicyOptions(options, defaultJitter: FormulaCommand.defaultJitter).policies[0]
        }
        let envoy = try policy(["--preset", "envoy-default", "--max-attempts", "4", "--jitter", "equal"])
        #expect(envoy.base == .milliseconds(25) && envoy.cap == .milliseconds(250) && envoy.capMode == .nominal)
        #expect(envoy.granularity == .milliseconds(1))
        #expect(envoy.budget == .maxAttempts(4) && envoy.jitter == .equal)
        // Polly Contrib's decorrelated jitter with another factor keeps its nominal cap rule.
        let polly = try policy(["--preset", "polly-contrib-decorrelated", "--decorrelated-factor", "4"])
        #expect(polly.jitter == .decorrelated(factor: 4) && polly.capMode == .nominal && polly.budget == .maxRetries(5))
        // --max-retries replaces a preset that counts attempts.
        #expect(try policy(["--preset", "aws-sdk-standard", "--max-retries", "6"]).budget == .maxRetries(6))
    }

    /// A service config reads as a preset value: the policy gRPC's A6 describes, and its throttling
    /// as the token budget.
    @Test func aServiceConfigIsAPresetValue() throws {
        let json = """
            {"methodConfig": [{"name": [{"service": "s"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s",
             "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}],
             "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}
            """
        let config = try GrpcServiceConfig(json: Data(json.utf8), method: nil)
        let expected = try BackoffPolicy(
            base: .milliseconds(100), schedule: .exponential(multiplier: 2), cap: .seconds(1), jitter: .full,
            capMode: .nominal,
            budget: .maxAttempts(4))
        #expect(config.preset.policy == expected)
        #expect(config.preset.budget == .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)))
    }

    /// A config whose numbers the model cannot take is refused naming the field.
    @Test func aServiceConfigBelowItsBaseNamesTheField() {
        let json = """
            {"methodConfig": [{"retryPolicy": {"maxAttempts": 3, "initialBackoff": "2s", "maxBackoff": "1s",
             "backoffMultiplier": 2, "retryableStatusCodes": [14]}}]}
            """
        #expect(throws: GrpcServiceConfig.Invalid.self) { try GrpcServiceConfig(json: Data(json.utf8), method: nil) }
        do {
            _ = try GrpcServiceConfig(json: Data(json.utf8), method: nil)
        } catch {
            #expect(
                error.description.hasPrefix("methodConfig[0].retryPolicy.maxBackoff 1s is below initialBackoff 2s"),
                "\(error)")
        }
    }
}

/// A policy's error names an option and a column through their declarations: every parameter has both.
@Suite struct PolicyParameterDeclarationTests {
    @Test(arguments: PolicyParameter.allCases)
    func everyParameterHasAnOptionAndAColumn(parameter: PolicyParameter) {
        #expect(PolicyOptions.specs(defaultJitter: "").contains { $0.parameter == .policy(parameter) }, "\(parameter)")
        #expect(PolicyColumns.name(of: parameter) != nil, "\(parameter)")
    }
}

/// A scenario's error names its option through the declarations: every parameter has one in simulate.
@Suite struct ScenarioParameterDeclarationTests {
    @Test(arguments: ScenarioParameter.allCases)
    func everyParameterHasAnOption(parameter: ScenarioParameter) {
        #expect(SimulateCommand.specs.contains { $0.parameter == .scenario(parameter) }, "\(parameter)")
    }
}
