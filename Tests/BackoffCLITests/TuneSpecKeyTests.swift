import Foundation
import Testing

@testable import BackoffCLI

/// `tune --search 'OPTION.KEY=...'`: a key of the spec an option was given is searched as a range
/// or choices, each candidate's value written into the option's spec, and bad searches are usage
/// errors naming the key.
@Suite struct TuneSpecKeyTests {
    static let replicaSet = [
        "tune", "--server", "capacity", "--replicas", "10", "--workers", "1", "--service", "exp:50ms", "--queue",
        "1000", "--arrivals", "poisson:200", "--duration", "10s", "--max-attempts", "3", "--host-fault",
        "1:fail-fast", "--balancer", "p2c", "--seed", "7", "--design", "3",
    ]

    /// Outlier detection's count and interval searched: each candidate's values lie in their
    /// ranges (the count whole, the interval in nanoseconds), and its objective is what simulate
    /// prints for the spec with those values written in, on the same seed.
    @Test func aSpecKeyIsSearchedInItsOptionsSpec() throws {
        let result = Invocation(
            Self.replicaSet + [
                "--outlier-detection", "consecutive-5xx", "--objective", "ejected_host_s",
                "--search", "outlier-detection.count=2..10,outlier-detection.interval=100ms..5s",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try #require(result.rows.first)
        let (count, interval, objective) = (
            try #require(header.firstIndex(of: "outlier-detection.count")),
            try #require(header.firstIndex(of: "outlier-detection.interval")),
            try #require(header.firstIndex(of: "ejected_host_s"))
        )
        let candidates = result.rows.dropFirst()
        #expect(candidates.count >= 3)
        var objectives: Set<String> = []
        for row in candidates.prefix(3) {
            let n = try #require(Int(row[count]))
            #expect((2...10).contains(n))
            #expect(row[interval].hasSuffix("ns"))
            let nanoseconds = try #require(Int64(row[interval].dropLast(2)))
            #expect((100_000_000...5_000_000_000).contains(nanoseconds))
            let simulate = Invocation(
                ["simulate"] + Array(Self.replicaSet[1..<21]) + [
                    "--jitter", "full", "--seed", "7", "--outlier-detection",
                    "consecutive-5xx:count=\(n):interval=\(row[interval])",
                ])
            #expect(simulate.field("ejected_host_s") == row[objective], "\(row)")
            objectives.insert(row[objective])
        }
        #expect(objectives.count > 1, "the searched keys change the run")
    }

    /// Choices work as for any option: a balancer's choices, with whole-number labels.
    @Test func aSpecKeyTakesChoices() {
        let result = Invocation(
            Self.replicaSet.filter { $0 != "p2c" && $0 != "--balancer" } + [
                "--balancer", "least-request", "--objective", "successes", "--maximize",
                "--search", "balancer.choices=2|all",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let column = result.rows.first?.firstIndex(of: "balancer.choices")
        #expect(Set(result.rows.dropFirst().compactMap { row in column.map { row[$0] } }) == ["2", "all"])
    }

    @Test(
        arguments: [
            (
                ["--search", "outlier-detection.count=2..10"],
                "'outlier-detection.count' is searched, but '--outlier-detection' is not given"
            ),
            (
                ["--outlier-detection", "consecutive-5xx:count=3", "--search", "outlier-detection.count=2..10"],
                "'outlier-detection.count' is both given (in '--outlier-detection consecutive-5xx:count=3') and searched"
            ),
            (
                ["--outlier-detection", "consecutive-5xx", "--search", "outlier-detection.count=0..10"],
                "'count=0': count takes a whole number from 1 to 1000000"
            ),
            (
                ["--outlier-detection", "consecutive-5xx", "--search", "outlier-detection.bogus=1..3"],
                "unknown parameter 'bogus'"
            ),
            (
                ["--outlier-detection", "consecutive-5xx", "--search", "outlier-detection.interval=1s..nan"],
                "'outlier-detection.interval=1s..nan': expected NUMBER..NUMBER"
            ),
            (
                ["--outlier-detection", "consecutive-5xx", "--search", "outlier-detection.count=3..3"],
                "the search space is empty"
            ),
            (["--search", "server.workers=1..3"], "'server.workers' is not an option tune can search"),
            (["--search", "host-fault.=1..3"], "'host-fault.' is not an option tune can search"),
        ] as [([String], String)])
    func aBadSpecKeySearchIsAUsageError(arguments: [String], message: String) {
        let result = Invocation(Self.replicaSet + ["--objective", "successes"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
