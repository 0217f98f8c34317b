import Foundation
import Testing

@testable import BackoffCLI

/// `check` recomputes the closed forms of the composites from the columns that record them
/// (`layer_attempts`, `service`, `replicas`, `hedge`, `arrivals`) and compares the simulated means
/// with them. Each simulation is seeded (the default seed, 2015); `check` fails at |z| > 4, so a
/// correct formula fails a comparison with probability 6e-5 (two-sided normal tail), and each test
/// makes at most 24 comparisons: below 0.2 % in all, and the seed makes it fixed.
@Suite struct CheckCompositeFormsTests {
    let tables = CheckRecomputeTests()

    /// Five client attempts over one layer of two against bernoulli(0.5): a client attempt fails with
    /// q = 0.5^2, so successes = N (1 - q^5) and the server's attempts (1 - 0.5^10) / (1 - 0.5).
    @Test func aLayeredTablesFormulasAreRecomputedAndMatchTheSimulation() throws {
        let command = "simulate --clients 4000 --server bernoulli:0.5 --layer max-attempts=2 --jitter none,full"
        let run = Invocation(command)
        #expect(run.field("layer_attempts") == "2")
        #expect(run.field("formula_successes").flatMap(Double.init) == 4000 * (1 - pow(0.25, 5)))
        #expect(run.field("formula_attempts_per_client").flatMap(Double.init) == (1 - pow(0.5, 10)) / 0.5)
        let untouched = try tables.check(command)
        #expect(untouched.status == 0, "\(untouched.stdout)")
        #expect(untouched.stdout.contains("2 rows, 6 comparisons, 0 failed"), "\(untouched.stdout)")
        let edited = try tables.check(command) { tables.set("formula_successes", row: 1, to: "4000", in: &$0) }
        #expect(edited.stdout.contains("formula_successes 4000 disagrees with the closed form recomputed"))
        // Other layers make other forms: the column is read, not assumed.
        let relayered = try tables.check(command) { tables.set("layer_attempts", row: 2, to: "3", in: &$0) }
        #expect(relayered.status == 1 && relayered.stdout.contains("FAIL row 2"), "\(relayered.stdout)")
        let unreadable = try tables.check(command) { tables.set("layer_attempts", row: 1, to: "2x0", in: &$0) }
        #expect(unreadable.stdout.contains("column layer_attempts holds '2x0', not whole numbers >= 1"))
    }

    /// Ten thousand workers serve every copy at once, where the hedge's closed forms hold: copies,
    /// response and work are recomputed from `service`, `replicas` and `hedge` and compared.
    @Test func anUnloadedHedgesMeansAreComparedWithItsClosedForms() throws {
        let command =
            "simulate --clients 20000 --server capacity --workers 10000 --replicas 3 --service lognormal:20ms:30ms "
            + "--hedge on:delay=10ms:max-attempts=3 --jitter none"
        let untouched = try tables.check(command)
        #expect(untouched.status == 0, "\(untouched.stdout)")
        #expect(untouched.stdout.contains("1 rows, 3 comparisons, 0 failed"), "\(untouched.stdout)")
        let edited = try tables.check(command) { tables.set("service", row: 1, to: "exp:20ms", in: &$0) }
        #expect(edited.stdout.contains("formula_copies_per_request"), "\(edited.stdout)")
        #expect(edited.status == 1)
        // The formula column, left as written but with a mean 10 % off: a 20,000-request mean has a
        // standard error near 0.3 %, so z is about -30.
        let slow = try tables.check(command) {
            let column = $0[0].firstIndex(of: "mean_response_s")!
            $0[1][column] = String(Double($0[1][column])! * 0.9)
        }
        #expect(slow.stdout.contains("mean_response_s") && slow.status == 1, "\(slow.stdout)")
    }

    /// Under load copies wait for workers, and the hedge's closed forms (no copy waits) do not
    /// hold: such a row is recomputed but not compared.
    @Test func aLoadedHedgeIsRecomputedButNotCompared() throws {
        let result = try tables.check("simulate --clients 2000 --server capacity --hedge on:delay=10ms --jitter none")
        #expect(result.stdout.contains("0 comparisons") && result.stdout.contains("nothing to check"))
        #expect(result.stdout.contains("7 formula values recomputed"), "\(result.stdout)")
    }

    /// A rate limit server under Poisson arrivals without retries: successes N (1 - P(throttled)),
    /// recomputed from `server` and `arrivals`.
    @Test func aRateLimitTablesSuccessesAreRecomputed() throws {
        let command = "simulate --server ratelimit:100/s --arrivals poisson:150 --max-attempts 1 --jitter none"
        let untouched = try tables.check(command)
        #expect(untouched.status == 0, "\(untouched.stdout)")
        let edited = try tables.check(command) { tables.set("arrivals", row: 1, to: "poisson:50", in: &$0) }
        #expect(edited.stdout.contains("formula_successes"), "\(edited.stdout)")
        #expect(edited.status == 1)
    }
}
