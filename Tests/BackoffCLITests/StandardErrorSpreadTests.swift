import Stochastics
import Testing

@testable import BackoffCLI

/// Every standard error a table writes is checked against the spread it claims to measure: the
/// same command under 30 root seeds gives 30 estimates x_i with standard errors s_i, and
///
/// ```
/// T = Σ (x_i − x̄)² / mean(s_i²)   ~   χ²(29)   when each s_i estimates the sd of x_i
/// ```
///
/// (the x_i are means of hundreds of independent requests, so nearly normal). T is held between
/// χ²(29)'s 0.0001 and 0.9999 quantiles (about 9.3 and 63): with the seeds fixed the test is
/// deterministic, and a standard error that is 0, or off by a factor of 2.2 or more either way,
/// fails it (T below 8.7 needs s about 1.8x the true sd; T above 66 needs it about 0.66x). Each
/// model and each option that changes how a row is made has its case: layers, hedges, a
/// granularity, an unjittered first retry, a time limit and each generator.
///
/// Where clients share a server (a rate limit's bucket, a queue, a stack) and arrive over time,
/// their outcomes cluster in time and the standard errors come from 32 to 64 batches of them in
/// arrival (or ending) order. Those estimates have about 31 degrees of freedom, so each s_i² is
/// itself off by about ±25 %; over 30 runs that averages out in mean(s_i²) to ±5 %, inside the
/// bounds' margin. Before batches the busy hedge failed: the requests' own spread put T at 166
/// for its copies per request and 737 for its mean response (their sd 2.4 and 5.0 times the
/// claimed error); a 20-token bucket at its rate, requests sent once over 600 s, spread 2.8
/// times its binomial error (8 seeds). A case whose
/// arrivals are Poisson has a random number of requests, so its successes are checked as the
/// share `successes/unique_requests` (the standard error, of the count given the requests, scales
/// with it).
///
/// A burst of clients that share a server or limits is one draw of their shared state, so one run
/// reports no standard errors; with `--replications 10` each s_i is the sd of its mean over 10 runs
/// (9 degrees of freedom: each s_i² is off by about ±47 %, and mean(s_i²) over 30 seeds by ±9 %,
/// inside the bounds' margin). Their cases are the last three. Before replications, the sessions'
/// spread within the run put T at 156 and 371 for the overloaded queue's attempts and successes,
/// and at 0.3 for the contention server's attempts.
@Suite struct StandardErrorSpreadTests {
    static let seeds = 1...30
    static let bounds = (
        low: ChiSquared.quantile(0.0001, degreesOfFreedom: 29), high: ChiSquared.quantile(0.9999, degreesOfFreedom: 29)
    )

    static let cases: [(id: String, arguments: [String], columns: [String])] = [
        (
            "two layers over bernoulli failures",
            [
                "simulate", "--clients", "400", "--server", "bernoulli:0.5", "--max-attempts", "3", "--layer",
                "max-attempts=3", "--jitter", "full",
            ],
            ["attempts_per_client", "mean_total_wait_s", "successes"]
        ),
        (
            "a hedge of three copies over replicas with workers to spare",
            [
                "simulate", "--clients", "400", "--server", "capacity", "--workers", "512", "--replicas", "3",
                "--hedge",
                "on:delay=5ms:max-attempts=3", "--jitter", "full",
            ],
            ["attempts_per_client", "copies_per_request", "mean_response_s", "work_per_request_s"]
        ),
        (
            "a layer's hedge with workers to spare",
            [
                "simulate", "--clients", "400", "--server", "capacity", "--workers", "512", "--replicas", "2",
                "--layer",
                "max-attempts=2,hedge-delay=5ms", "--jitter", "full",
            ],
            ["attempts_per_client", "copies_per_request", "mean_response_s"]
        ),
        (
            "waits with a granularity", ["waits", "--runs", "400", "--jitter", "full", "--granularity", "100ms"],
            ["mean_total_wait_s"]
        ),
        (
            "waits with an unjittered first retry",
            ["waits", "--runs", "400", "--jitter", "full", "--first-retry", "unjittered"], ["mean_total_wait_s"]
        ),
        (
            "waits with a time limit", ["waits", "--runs", "400", "--jitter", "full", "--max-elapsed", "2s"],
            ["mean_total_wait_s"]
        ),
        (
            "waits under taus2", ["waits", "--runs", "400", "--jitter", "equal", "--generator", "taus2"],
            ["mean_total_wait_s"]
        ),
        (
            "waits under mt19937", ["waits", "--runs", "400", "--jitter", "decorrelated", "--generator", "mt19937"],
            ["mean_total_wait_s"]
        ),
        (
            "a rate limit at its rate, a 20-token bucket, Poisson arrivals",
            [
                "simulate", "--server", "ratelimit:100/s:burst=20", "--arrivals", "poisson:95", "--duration", "100s",
                "--max-attempts", "3", "--base", "10ms", "--jitter", "full",
            ],
            ["successes/unique_requests", "mean_total_wait_s", "attempts_per_client"]
        ),
        (
            "a queue of two workers near saturation with a retrying layer, Poisson arrivals",
            [
                "simulate", "--server", "capacity", "--workers", "2", "--queue", "20", "--service", "exp:10ms",
                "--arrivals", "poisson:170", "--duration", "100s", "--layer", "max-attempts=2", "--max-attempts", "2",
                "--base", "10ms", "--jitter", "full",
            ],
            ["successes/unique_requests", "mean_total_wait_s", "attempts_per_client"]
        ),
        (
            "a hedge over three busy replicas, Poisson arrivals",
            [
                "simulate", "--server", "capacity", "--workers", "1", "--replicas", "3", "--service", "exp:10ms",
                "--arrivals", "poisson:200", "--duration", "100s", "--hedge", "on:delay=10ms", "--max-attempts", "1",
            ],
            ["copies_per_request", "mean_response_s", "work_per_request_s", "attempts_per_client"]
        ),
        (
            "a burst against an overloaded queue of two workers, 10 replications",
            [
                "simulate", "--clients", "1000", "--server", "capacity", "--workers", "2", "--queue", "20", "--service",
                "exp:10ms", "--max-attempts", "6", "--jitter", "full", "--timeout", "100ms", "--replications", "10",
            ],
            ["attempts_per_client", "mean_total_wait_s", "successes"]
        ),
        (
            "a burst on the contention server, 10 replications",
            [
                "simulate", "--clients", "500", "--server", "contention", "--max-attempts", "5", "--jitter", "equal",
                "--replications", "10",
            ],
            ["attempts_per_client", "mean_total_wait_s", "successes"]
        ),
        (
            "a burst under a shared retry budget, 10 replications",
            [
                "simulate", "--clients", "1000", "--server", "bernoulli:0.5", "--budget", "token:ratio=0.5",
                "--max-attempts", "4", "--jitter", "full", "--replications", "10",
            ],
            ["attempts_per_client", "mean_total_wait_s", "successes"]
        ),
        (
            "a Bernoulli server under taus2",
            ["simulate", "--clients", "400", "--server", "bernoulli:0.3", "--jitter", "full", "--generator", "taus2"],
            ["attempts_per_client", "mean_total_wait_s", "successes"]
        ),
    ]

    @Test(arguments: cases.indices)
    func standardErrorsMatchTheSpreadOfReseededRuns(index: Int) throws {
        let (id, arguments, columns) = Self.cases[index]
        var estimates: [String: [(value: Double, standardError: Double)]] = [:]
        for seed in Self.seeds {
            let run = Invocation(arguments + ["--seed", String(seed)])
            try #require(run.status == 0, "\(id), seed \(seed): \(run.stderr)")
            for column in columns {
                // "a/b": the share a / b, whose standard error is se_a / b.
                let parts = column.split(separator: "/").map(String.init)
                let scale = try parts.count == 2 ? #require(run.field(parts[1]).flatMap(Double.init)) : 1
                let value = try #require(run.field(parts[0]).flatMap(Double.init), "\(id): no \(parts[0])")
                let error = try #require(
                    run.field("se_" + parts[0]).flatMap(Double.init), "\(id): no se_\(parts[0])")
                estimates[column, default: []].append((value / scale, error / scale))
            }
        }
        for column in columns {
            let sample = estimates[column]!
            let mean = sample.reduce(0) { $0 + $1.value } / Double(sample.count)
            let spread = sample.reduce(0) { $0 + ($1.value - mean) * ($1.value - mean) }
            let claimed = sample.reduce(0) { $0 + $1.standardError * $1.standardError } / Double(sample.count)
            let statistic = spread / claimed
            #expect(
                statistic >= Self.bounds.low && statistic <= Self.bounds.high,
                """
                \(id), \(column) (seeds \(Self.seeds)): T = \(statistic) outside [\(Self.bounds.low), \
                \(Self.bounds.high)]; sd of the estimates \((spread / Double(sample.count - 1)).squareRoot()), \
                rms standard error \(claimed.squareRoot())
                """)
        }
    }
}
