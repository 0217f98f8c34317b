import BackoffPolicies
import RetrySimulation
import Testing

@testable import BackoffCLI

/// A layer printed as `--layer` takes it and read back is the same layer, for layers drawn at
/// random: every policy option (schedules with a linear increment, attempts as max-attempts or
/// max-retries, every jitter mode with its parameter), budgets, breakers, per-try timeouts, the
/// concurrency cap and hedges (seeded, so a failure names a layer that fails again).
@Suite struct LayerSpecRoundTripTests {
    typealias Values = SpecRoundTripTests.Values

    static let seed: UInt64 = 20_261_208
    static let draws = 400

    static func policy(_ values: inout Values) throws -> BackoffPolicy {
        let base = values.duration(1_000...60_000_000_000)
        let schedule: BackoffSchedule =
            switch values.int(0...3) {
            case 0: .exponential(multiplier: 1 + 9 * values.unit())
            case 1: .constant
            case 2: .linear(increment: values.duration(0...10_000_000_000))
            default: .immediate
            }
        var jitter = PolicyColumnRoundTripTests.jitter(&values)
        // Granularity and an unjittered first retry need independent draws from a window.
        if !jitter.acceptsWaitShapes, values.bool() { jitter = .full }
        return try BackoffPolicy(
            base: base, schedule: schedule, cap: values.bool() ? nil : base * values.int(1...1_000), jitter: jitter,
            capMode: [nil, CapMode.nominal, .clamp][values.int(0...2)],
            budget: values.bool() ? .maxAttempts(values.int(1...100)) : .maxRetries(values.int(0...99)),
            maxElapsed: values.bool() ? nil : values.duration(1...3_600_000_000_000),
            firstRetry: jitter.acceptsWaitShapes
                ? [FirstRetry.jittered, .unjittered, .immediate][values.int(0...2)] : .jittered,
            granularity: jitter.acceptsWaitShapes && values.bool()
                ? values.duration(1...1_000_000_000) : nil)
    }

    @Test func everyLayerReadsBackFromItsSpec() throws {
        var values = Values(state: Self.seed)
        var written = 0
        for draw in 0..<Self.draws {
            let layer: ServiceLayer
            do {
                let budget: RetryBudget? =
                    values.bool()
                    ? nil : .tokenBucket(try TokenBucketBudget(maxTokens: 1 + 99 * values.unit(), tokenRatio: 0.1))
                let breaker: CircuitBreaker? =
                    values.bool()
                    ? nil : try CircuitBreaker(failureThreshold: 0.5, minimumRequests: values.int(1...100))
                let hedging: Hedging? =
                    values.bool()
                    ? nil
                    : try Hedging(
                        delay: values.duration(0...1_000_000_000), copies: values.int(1...Hedging.maximumCopies))
                layer = try ServiceLayer(
                    name: "tier\(draw)", policy: try Self.policy(&values),
                    limits: RetryLimits(budget: budget, breaker: breaker),
                    timeout: values.bool() ? nil : values.duration(1...10_000_000_000),
                    concurrency: values.bool() ? nil : values.int(1...10_000), hedging: hedging)
            } catch {
                continue  // a combination the policy refuses (Polly's jitter with a cap rule, say)
            }
            written += 1
            let spec = LayerOptions.spec(layer)
            let read = try LayerOptions.layer(spec, number: 1, jitter: .full, command: "simulate")
            #expect(read == layer, "seed \(Self.seed), draw \(draw): --layer \(spec)")
        }
        #expect(written > Self.draws / 2, "only \(written) of \(Self.draws) draws made a layer")
    }
}
