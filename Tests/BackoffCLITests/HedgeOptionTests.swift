import Testing

@testable import BackoffCLI

/// `simulate --hedge` and `--replicas` end to end: the columns they fill, the spec written back as
/// `--hedge` takes it, and the same bytes for the same seed.
@Suite struct HedgeOptionTests {
    static let hedged =
        "simulate --server capacity --replicas 4 --workers 1 --queue 1000 --service fixed:100ms --max-attempts 1 "
        + "--clients 1 --hedge on:delay=30ms:max-attempts=2:cancel=no --seed 7"

    /// One request, copy 2 at 30 ms to another replica, not cancelled: 2 copies, answered at
    /// 100 ms, 200 ms of work, the loser wasted; the closed forms agree exactly (fixed service).
    @Test func aHedgedRunFillsItsColumns() {
        let result = Invocation(Self.hedged)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("replicas") == "4")
        #expect(result.field("hedge") == "on:delay=30ms:max-attempts=2:cancel=no")
        #expect(result.field("copies_per_request") == "2" && result.field("formula_copies_per_request") == "2")
        #expect(result.field("mean_response_s") == "0.1" && result.field("p99_response_s") == "0.1")
        #expect(result.field("work_per_request_s") == "0.2")
        #expect(result.field("wasted_work") == "1" && result.field("cancelled_copies") == "0")
        let formulaWork = Double(result.field("formula_work_per_request_s") ?? "") ?? .nan
        #expect(abs(formulaWork - 0.2) < 1e-9, "formula work \(formulaWork)")
        #expect(Invocation(Self.hedged).stdout == result.stdout, "the same seed gives the same bytes")
    }

    /// Without --hedge or --replicas the run takes the plain path, and the hedge's measures stay
    /// empty; --hedge none says so in its column.
    @Test func aPlainRunLeavesThemEmpty() {
        let result = Invocation("simulate --server capacity --clients 20 --max-attempts 1 --seed 7")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("replicas") == "1" && result.field("hedge") == "none")
        for column in ["copies_per_request", "formula_copies_per_request", "mean_response_s", "cancelled_copies"] {
            #expect(result.field(column) == "", "\(column)")
        }
    }

    /// Finagle's percentile delay: written back as --hedge takes it, no closed form (the delay is
    /// what the run sees), and backups only once the window has filled (from 3 s: the run below
    /// lasts 20 s at 100 a second, so about 5 % of the later requests send one).
    @Test func aPercentileHedgeHasNoClosedForm() throws {
        for spec in [
            "on:percentile=0.95:cancel=no", "on:percentile=1:cancel=yes",
            "on:percentile=0.9:cancel=yes:cancel-delay=5ms",
            "on:delay=10ms:max-attempts=3:cancel=yes:cancel-delay=1s",
        ] {
            #expect(HedgeSpec.print(try HedgeSpec.parse(spec)) == spec)
        }
        let result = Invocation(
            "simulate --server capacity --replicas 2 --workers 50 --service exp:50ms --arrivals poisson:100 "
                + "--duration 20s --max-attempts 1 --jitter none --hedge on:percentile=0.95 --seed 7")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("hedge") == "on:percentile=0.95:cancel=yes")
        #expect(result.field("formula_copies_per_request") == "" && result.field("formula_mean_response_s") == "")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // A run whose arrivals end before Finagle's histogram is first read (12 s) shows its start
        // only, and says so.
        let short = Invocation(
            "simulate --server capacity --replicas 2 --clients 100 --max-attempts 1 --hedge on:percentile=0.99")
        #expect(short.status == 0 && short.stderr.contains("Finagle sends no backup in its first 3 s"))
        #expect(short.stderr.contains("the clients all arrive at 0"), "\(short.stderr)")
    }

    /// Finagle's warm-up, where the copies per request are known: from the first refresh (3 s) to
    /// the one after the first flush (12 s) the histogram has never been flushed, reads 0, and the
    /// delay is its floor, 1 ms. Nearly every call (e^(-1/50) of them, service exp:50ms) is still
    /// unanswered then and asks for a backup, so the filter's `RetryBudget` alone decides: its
    /// balance is the reserve, 10/s x 10 s = 100, plus (1 - Q) of the last 10 s of requests, less
    /// the backups of those 10 s. No backup has left the window by 12 s (the first was sent at
    /// 3 s), so a run whose arrivals end at 12 s sends 100 + (1 - Q) R(2 s, 12 s) backups, where
    /// R(2, 12) ≈ N x 10/12 of its N requests: copies = 1 + (100 + (1 - Q) N 10/12) / N.
    ///
    /// Tolerance: R(2, 12) given N is binomial(N, 10/12), sd √(N (10/12)(2/12)) ≈ 13 at N ≈ 1,200,
    /// which moves copies by (1 - Q) 13 / N < 0.001 (x 4 = 0.004); the budget counts requests in
    /// 1 s slots, so its window edge is off by up to one slot of deposits, (1 - Q) 100 ≤ 10 backups,
    /// 10 / N ≈ 0.008. A band of ±0.012 holds the right Q and fails its neighbour: the expected
    /// copies at Q = 0.95 and 0.9 differ by 0.05 x 10/12 ≈ 0.042.
    @Test(arguments: [0.95, 0.9])
    func aPercentileHedgeWarmsUpWithinItsBudget(percentile: Double) {
        let result = Invocation(
            "simulate --server capacity --replicas 2 --workers 50 --service exp:50ms --arrivals poisson:100 "
                + "--duration 12s --max-attempts 1 --jitter none --hedge on:percentile=\(percentile) --seed 7")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("peak_queue") == "0", "every copy starts at once")
        let copies = Double(result.field("copies_per_request") ?? "") ?? .nan
        let requests = Double(result.field("clients") ?? "") ?? .nan
        let expected = 1 + (100 + (1 - percentile) * requests * 10 / 12) / requests
        #expect(abs(copies - expected) < 0.012, "Q \(percentile): \(copies) copies, expected \(expected) (seed 7)")
    }
}
