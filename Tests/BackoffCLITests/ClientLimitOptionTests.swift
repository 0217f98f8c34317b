import Foundation
import Testing

@testable import BackoffCLI

/// `simulate --limit`: the clients' adaptive concurrency limit from the command line, its timeline
/// column, and bad values refused by name.
@Suite struct ClientLimitOptionTests {
    static let overload = [
        "simulate", "--server", "capacity", "--workers", "4", "--service", "exp:10ms", "--queue", "1000",
        "--arrivals", "poisson:300", "--duration", "10s", "--degrade-from", "3s", "--degrade-until", "6s",
        "--degrade-to", "0.3", "--timeout", "200ms", "--max-attempts", "3", "--jitter", "full", "--bucket", "1s",
    ]

    /// The limit refuses attempts while the server is degraded (local_rejections), and the timeline
    /// follows it: a limit in every bucket with an answer, lower while timeouts cut it. Without
    /// `--limit` the column is empty and nothing is refused.
    @Test func theTimelineFollowsTheClientsLimit() throws {
        let directory = TemporaryDirectory()
        let timeline = directory.file("timeline.csv")
        let limited = Invocation(Self.overload + ["--limit", "aimd:initial=10:min=2", "--timeline", timeline])
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(Int(limited.field("local_rejections") ?? "") ?? 0 > 0)
        let rows = try String(contentsOfFile: timeline, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let column = try #require(rows.first?.firstIndex(of: "concurrency_limit"))
        let limits = rows.dropFirst().map { Int($0[column]) }
        #expect(limits.allSatisfy { $0 != nil }, "\(limits)")
        let values = limits.compactMap { $0 }
        #expect(values.min()! >= 2 && values[4] < values[2], "cut while degraded: \(values)")
        let plain = Invocation(Self.overload + ["--timeline", timeline])
        #expect(plain.field("local_rejections") == "0")
        let plainRows = try String(contentsOfFile: timeline, encoding: .utf8).split(separator: "\n")
        #expect(plainRows.dropFirst().allSatisfy { $0.hasSuffix(",") }, "an empty last column")
    }

    @Test(
        arguments: [
            (["--limit", "aimd:min=0"], "Invalid value 'aimd:min=0' for '--limit <algorithm>': min must be from 1"),
            (["--limit", "fifo"], "Invalid value 'fifo' for '--limit <algorithm>': expected aimd["),
            (["--limit", ""], "Invalid value '' for '--limit <algorithm>'"),
            (["--limit", "aimd:backoff=nan"], "backoff must be a number, got 'nan'"),
            (
                ["--server", "contention", "--limit", "vegas"],
                "'vegas' for '--limit <algorithm>': the contention model's clients send their next read"
            ),
        ] as [([String], String)])
    func aBadLimitIsAUsageError(arguments: [String], message: String) {
        let result = Invocation(["simulate", "--clients", "10"] + arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
