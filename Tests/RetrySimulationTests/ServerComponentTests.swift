import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// The server seam (``ServerComponent``): a server model declared in one file runs through
/// `Scenario.run`, validation and the closed forms with no other source touched. The model here
/// lives in this test file alone and is registered nowhere; `ServerComponents.registered` only
/// gives it a `--server` name.
@Suite struct ServerComponentTests {
    static let seed: UInt64 = 20_261_207

    /// A server that answers each attempt `latency` after it arrives, a failure with probability
    /// `failureProbability`: the Bernoulli server with a service time, through its own event.
    struct SlowCoin: ServerComponent {
        let failureProbability: Double
        let latency: Duration

        static let name = "slow-coin"
        static let usage = "slow-coin:P:D"
        static let form = "slow-coin:P:DURATION_MS"
        static let help = ["Each attempt fails with probability P, answered D milliseconds after it arrives."]

        init(failureProbability: Double, latency: Duration) {
            (self.failureProbability, self.latency) = (failureProbability, latency)
        }

        init?(parameters: String?) {
            let parts = parameters?.split(separator: ":").compactMap { Double($0) } ?? []
            guard parts.count == 2 else { return nil }
            self.init(failureProbability: parts[0], latency: .milliseconds(parts[1]))
        }

        var specText: String { "slow-coin:\(failureProbability):\(latency.nanoseconds / 1e6)" }

        func validate() throws(SimulationError) {
            guard (0...1).contains(failureProbability) else { throw .invalidFailureProbability(failureProbability) }
        }

        /// A burst of clients with one request each, n attempts: attempt k + 1 happens when the
        /// first k fail, so attempts = Σ_{k<n} P^k and the share that succeeds is 1 − P^n.
        func closedForm(in scenario: Scenario) -> (
            attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
        )? {
            guard case .burst = scenario.arrivals, scenario.requestsPerClient == 1 else { return nil }
            let n = scenario.policy.maxAttempts
            let p = failureProbability
            return ((0..<n).reduce(0) { $0 + pow(p, Double($1)) }, .nan, 1 - pow(p, Double(n)))
        }

        func run(on runner: ServerRunner) throws -> ScenarioReport { try runner.run(Machine.self) }

        /// The machine: one event kind, the answer, whose value carries the attempt and its coin.
        struct Machine: ComponentMachine {
            static var eventKinds: UInt32 { 1 }
            static var releasesEveryAttempt: Bool { true }
            let model: SlowCoin

            init(_ model: SlowCoin, scenario: Scenario, seed: UInt64) { self.model = model }

            func receive<Decisions: ServerDecisions>(
                client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
            ) {
                var random = decisions.random(for: client)
                let fails: Int64 = random.nextUniform() < model.failureProbability ? 1 : 0
                decisions.counted(client, isRetry: isRetry, answeredAtOnce: nil)
                decisions.schedule(0, for: client, value: attempt << 1 | fails, after: model.latency.wholeNanoseconds)
            }

            func handle<Decisions: ServerDecisions>(
                _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
            ) {
                let (client, attempt, fails) = (event.client, Int64(event.value >> 1), event.value & 1 == 1)
                guard decisions.isAwaiting(client, attempt: attempt) else {
                    return decisions.wasted(client, attempt: attempt)
                }
                decisions.answer(
                    client, fails ? .failure(serverDelay: nil) : .success, recording: fails ? .failure : .success)
            }
        }
    }

    /// The run's attempts and successes against the component's own closed form. The success share
    /// of N independent clients has standard error √(q(1 − q)/N); attempts per client, whose
    /// variance is at most (n − 1)²/4, at most (n − 1)/(2√N). z = 4 for both.
    @Test(arguments: [0.3, 0.7])
    func aComponentDeclaredInOneFileRunsAgainstItsClosedForm(failureProbability: Double) throws {
        let clients = 20_000
        let scenario = try Scenario(
            clients: clients,
            server: .component(
                AnyServerComponent(SlowCoin(failureProbability: failureProbability, latency: .milliseconds(30)))),
            policy: try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(4)), bucketWidth: .seconds(1))
        let formula = try #require(scenario.closedForm)
        let report = try scenario.run(seed: Self.seed)
        let n = 4.0
        let share = Double(report.successes) / Double(clients)
        let q = formula.successFraction
        #expect(
            abs(share - q) <= 4 * (q * (1 - q) / Double(clients)).squareRoot(),
            "seed \(Self.seed): success share \(share), formula \(q)")
        let attempts = Double(report.attempts) / Double(clients)
        #expect(
            abs(attempts - formula.attemptsPerClient) <= 4 * (n - 1) / (2 * Double(clients).squareRoot()),
            "seed \(Self.seed): attempts per client \(attempts), formula \(formula.attemptsPerClient)")
        // The server makes no attempts of its own: every attempt it saw was a client's.
        #expect(report.attempts == report.clientAttempts)
    }

    /// A component's ranges are checked as a built-in model's are: a scenario refuses it.
    @Test func aComponentsValidationGuardsTheScenario() {
        #expect(throws: SimulationError.invalidFailureProbability(1.5)) {
            try Scenario(
                clients: 1, server: .component(AnyServerComponent(SlowCoin(failureProbability: 1.5, latency: .zero))),
                policy: try BackoffPolicy(), bucketWidth: .seconds(1))
        }
    }

    /// Two boxes are equal when their components are of one type with equal parameters.
    @Test func boxesCompareTheirComponents() {
        let coin = AnyServerComponent(SlowCoin(failureProbability: 0.5, latency: .milliseconds(1)))
        #expect(coin == AnyServerComponent(SlowCoin(failureProbability: 0.5, latency: .milliseconds(1))))
        #expect(coin != AnyServerComponent(SlowCoin(failureProbability: 0.5, latency: .milliseconds(2))))
        #expect(coin != AnyServerComponent(RateLimit(rate: 0.5)))
        #expect(Set([ServerModel.rateLimit(RateLimit(rate: 2)), .rateLimit(RateLimit(rate: 2))]).count == 1)
    }

    /// Every registered component reads back its own text, names itself apart from the built-in
    /// models, and keeps its help within the help's width.
    @Test func registeredComponentsReadBackTheirOwnText() throws {
        let limit = RateLimit(rate: 2.5, burst: 3, share: 0.25)
        let text = limit.specText
        #expect(text == "ratelimit:2.5/s:burst=3:share=0.25")
        #expect(RateLimit(parameters: String(text.dropFirst("ratelimit:".count))) == limit)
        #expect(RateLimit(parameters: nil) == nil)
        #expect(RateLimit(parameters: "600/m") == RateLimit(rate: 10))
        let names = ServerComponents.registered.map { $0.name }
        #expect(Set(names).count == names.count)
        #expect(ServerComponents.named("ratelimit").map(ObjectIdentifier.init) == ObjectIdentifier(RateLimit.self))
        #expect(ServerComponents.named("capacity") == nil)
        for component in ServerComponents.registered {
            #expect(component.help.allSatisfy { $0.count <= 82 }, "\(component.name)'s help is too wide")
        }
    }
}
