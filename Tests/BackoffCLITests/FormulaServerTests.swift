import Foundation
import Testing

@testable import BackoffCLI

/// `formula --server capacity`: the capacity server's chain next to the simulation of the same
/// scenario, and its options refused with their forms when they cannot make a chain.
@Suite struct FormulaServerTests {
    static let server = "--server capacity --arrivals poisson:150 --workers 2 --queue 3 --service exp:10ms"
    static let policy = "--jitter exponential --base 20ms --max-attempts 3"

    /// The chain's attempts per request and mean total wait against one simulated run of 60,000
    /// requests (400 s), within 4 of the run's own standard errors (its se_ columns, from batches
    /// in arrival order): a false alarm once in 15,000 per figure if the two agree.
    @Test func theChainMatchesTheSimulatedRun() throws {
        let formula = Invocation("formula " + Self.server + " " + Self.policy)
        #expect(formula.status == 0 && formula.stderr.isEmpty, "\(formula.stderr)")
        let simulated = Invocation("simulate " + Self.server + " --duration 400s --seed 11 " + Self.policy)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        for (exact, measured, error) in [
            ("capacity_attempts_per_request", "attempts_per_client", "se_attempts_per_client"),
            ("capacity_mean_total_wait_s", "mean_total_wait_s", "se_mean_total_wait_s"),
        ] {
            let chain = try #require(formula.field(exact).flatMap(Double.init))
            let run = try #require(simulated.field(measured).flatMap(Double.init))
            let se = try #require(simulated.field(error).flatMap(Double.init))
            #expect(
                se > 0 && abs(chain - run) <= 4 * se,
                "\(exact) \(chain) against \(measured) \(run) ± 4 × \(se), seed 11")
        }
        let lost = try #require(formula.field("capacity_lost_fraction").flatMap(Double.init))
        let goodput = try #require(formula.field("capacity_goodput_per_s").flatMap(Double.init))
        #expect(abs(goodput - 150 * (1 - lost)) <= 1e-9 * goodput)
        #expect(try #require(formula.field("capacity_boundary_mass").flatMap(Double.init)) < 1e-9)
    }

    /// A row whose waits are not exponential has empty answers and a warning naming its jitter.
    @Test func aRowWithoutMemorylessWaitsIsEmptyAndNamed() {
        let result = Invocation("formula " + Self.server + " --jitter exponential,full --max-attempts 3")
        #expect(result.status == 0 && result.field("capacity_lost_fraction", row: 1) == "")
        #expect(result.field("capacity_lost_fraction", row: 0)?.isEmpty == false)
        #expect(result.stderr.contains("jitter full: waits that are not exponential"), "\(result.stderr)")
    }

    /// Fixed service or a timeout makes no chain: the capacity_ cells are empty and a warning says
    /// why, while the fluid answers. Fixed 4 ms services, 1,000 places, 200 ms: an attempt behind
    /// more than 196 waiting times out, so 500 requests a second with 10 attempts are vulnerable
    /// (λ s = 2 < 4 workers, and 5,000 attempts a second at a full queue), tipped by a backlog
    /// above 196 and below the queue; at 1,100 a second, above the workers' 1,000, collapsed.
    @Test func withoutAChainTheFluidAnswers() throws {
        let server = "--server capacity --workers 4 --service fixed:4ms --queue 1000 --timeout 200ms"
        let result = Invocation("formula " + server + " --arrivals poisson:500 --max-attempts 10 --base 10ms")
        #expect(result.status == 0 && result.field("capacity_lost_fraction") == "", "\(result.stderr)")
        #expect(result.stderr.contains("a --timeout makes no Markov chain"), "\(result.stderr)")
        #expect(result.field("fluid_state") == "vulnerable" && result.field("timeout_s") == "0.2")
        #expect(result.field("fluid_low_goodput_per_s") == "500" && result.field("fluid_high_goodput_per_s") == "0")
        let backlog = try #require(result.field("fluid_tipping_backlog").flatMap(Double.init))
        #expect(backlog > 196 && backlog < 1000, "\(backlog)")
        let overloaded = Invocation("formula " + server + " --arrivals poisson:1100 --max-attempts 10")
        #expect(overloaded.field("fluid_state") == "collapsed" && overloaded.field("fluid_tipping_backlog") == "")
        let fixed = Invocation(
            "formula --server capacity --arrivals poisson:100 --service fixed:10ms --jitter exponential")
        #expect(fixed.status == 0 && fixed.stderr.contains("a service time that is not exp:MEAN"), "\(fixed.stderr)")
        #expect(fixed.field("fluid_state") == "stable" && fixed.field("timeout_s") == "inf")
        // 1 ns services are too stiff to integrate: the cells are empty, the command succeeds.
        let stiff = Invocation("formula --server capacity --arrivals poisson:100 --service fixed:1ns --timeout 1ns")
        #expect(stiff.status == 0 && stiff.field("fluid_state") == "", "\(stiff.stderr)")
        let run = Invocation(
            "simulate --server capacity --arrivals poisson:100 --duration 1s --service fixed:1ns --timeout 1ns")
        #expect(run.status == 0 && run.field("fluid_state") == "" && run.field("successes") != "", "\(run.stderr)")
    }

    @Test(arguments: [
        ("--server capacity", "needs '--arrivals poisson:RATE'"),
        ("--server capacity --arrivals burst", "the chain needs Poisson arrivals"),
        ("--server capacity --arrivals poisson:0", "the rate must be finite and above 0"),
        ("--server capacity --arrivals poisson:-1", "the rate must be finite and above 0"),
        ("--server capacity --arrivals poisson:nan", "'--arrivals <process>'"),
        ("--server capacity --arrivals poisson:100 --service exp:0ms", "'--service <distribution>'"),
        ("--server capacity --arrivals poisson:100 --service fixed:0ms", "a service time of a mean above 0"),
        ("--server capacity --arrivals poisson:100 --timeout 0ms", "'--timeout <duration>'"),
        ("--server capacity --arrivals poisson:100 --timeout -1s", "'--timeout <duration>'"),
        ("--server capacity --arrivals poisson:100 --timeout nan", "'--timeout <duration>'"),
        ("--server capacity --arrivals poisson:100 --timeout 99999999999h", "'--timeout <duration>'"),
        ("--server outage:2s --arrivals poisson:100", "expected capacity"),
        ("--server capacity --arrivals poisson:100 --workers 0", "'--workers <count>'"),
        ("--server capacity --arrivals poisson:100 --queue -1", "'--queue <count>'"),
    ])
    func badServersAreRefusedWithTheForm(arguments: String, reason: String) {
        let result = Invocation("formula --jitter exponential " + arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
    }

    /// Options of the server without `--server` are named as unused; an empty server is refused.
    /// (A chain too large for its state budget exits 1 with nothing written, naming simulate: that
    /// takes seconds of solving first, so it is checked by hand, and `RetrialQueueTests` checks
    /// the error itself.)
    @Test func unusedOptionsAreNamedAndAnEmptyServerRefused() {
        let unused = Invocation("formula --jitter exponential --arrivals poisson:100 --workers 3 --timeout 1s")
        #expect(unused.status == 0 && unused.stderr.contains("'--workers' applies only with --server capacity"))
        #expect(unused.stderr.contains("'--timeout' applies only with --server capacity"), "\(unused.stderr)")
        let empty = Invocation(["formula", "--server", "", "--arrivals", "poisson:100"])
        #expect(empty.status == 64 && empty.stdout.isEmpty && empty.stderr.contains("expected capacity"))
    }
}
