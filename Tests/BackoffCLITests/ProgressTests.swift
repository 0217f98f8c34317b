import Foundation
import RetrySimulation
import Testing

@testable import BackoffCLI

/// Progress of a long `simulate` on stderr (`ProgressLine`): on a terminal by itself after a
/// second, with `--progress` anywhere; stdout and files never change.
@Suite struct ProgressTests {
    static let start = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    /// Off a terminal: a line at most once a second, rate and time left from the elapsed time.
    @Test func aLineASecondWithRateAndTimeLeft() {
        var line = ProgressLine(label: "simulate", unit: "clients", total: 1000, rewritesLine: false, start: Self.start)
        var text = ""
        line.update(done: 0, at: Self.at(1), to: &text)
        line.update(done: 400, at: Self.at(1.5), to: &text)  // half a second after the last line: none
        line.update(done: 500, at: Self.at(2), to: &text)
        line.finish(done: 1000, at: Self.at(4), to: &text)
        #expect(
            text == """
                simulate: 0/1,000 clients, none yet after 1.0 s
                simulate: 500/1,000 clients, 250 clients/s, 2.0 s left
                simulate: 1,000/1,000 clients in 4.0 s

                """)
    }

    /// On a terminal: nothing in the first second, then one line rewritten in place, ended by the
    /// last one.
    @Test func aTerminalLineIsRewrittenAfterASecond() {
        var line = ProgressLine(
            label: "simulate", unit: "clients", total: 2_000_000, rewritesLine: true, silentFor: .seconds(1),
            start: Self.start)
        var text = ""
        line.update(done: 100, at: Self.at(0.8), to: &text)
        #expect(text.isEmpty && !line.hasReported)
        line.update(done: 1_200_000, at: Self.at(1.2), to: &text)
        line.update(done: 1_500_000, at: Self.at(1.4), to: &text)
        line.finish(done: 2_000_000, at: Self.at(2), to: &text)
        let erase = "\u{1B}[K"
        #expect(
            text == "\rsimulate: 1,200,000/2,000,000 clients, 1,000,000 clients/s, 0.8 s left\(erase)"
                + "\rsimulate: 1,500,000/2,000,000 clients, 1,071,429 clients/s, 0.5 s left\(erase)"
                + "\rsimulate: 2,000,000/2,000,000 clients in 2.0 s\(erase)\n")
    }

    /// A count past the expected total (Poisson arrivals draw theirs) raises it; the last line
    /// shows the count that ran.
    @Test func aCountPastTheTotalRaisesIt() {
        var line = ProgressLine(label: "simulate", unit: "clients", total: 100, rewritesLine: false, start: Self.start)
        var text = ""
        line.update(done: 120, at: Self.at(1), to: &text)
        #expect(line.total == 120 && text.hasPrefix("simulate: 120/120 clients"))
        line.finish(done: 97, at: Self.at(1), to: &text)
        #expect(text.hasSuffix("simulate: 97/97 clients in 1.0 s\n"))
    }

    static let burst = ["simulate", "--clients", "2000", "--server", "outage:1s", "--seed", "4"]
    static let capacity = [
        "simulate", "--arrivals", "poisson:300", "--duration", "5s", "--server", "capacity", "--workers", "2",
        "--service", "exp:5ms", "--jitter", "full,equal", "--seed", "4",
    ]

    /// The lines a run wrote before its last: each of the running form. How many there are
    /// depends on the machine's speed (a line a second), so tests look at their form only.
    static func expectRunningLines(_ lines: some Sequence<Substring>) {
        for line in lines {
            #expect(
                line.wholeMatch(
                    of:
                        /simulate: [0-9,]+\/[0-9,]+ clients, ([0-9,.]+ clients\/s, [0-9,.]+ s left|none yet after [0-9,.]+ s)/
                )
                    != nil, "\(line)")
        }
    }

    /// `--progress` adds lines on stderr ending in one that counts every client of every jitter
    /// mode, and nothing else: the table is the same byte for byte, client by client and
    /// event-ordered (Poisson arrivals, whose number is drawn).
    @Test func progressAddsLinesAndChangesNoTable() throws {
        for arguments in [Self.burst, Self.capacity] {
            let quiet = Invocation(arguments)
            let loud = Invocation(arguments + ["--progress"])
            #expect(quiet.status == 0 && loud.status == 0 && quiet.stderr.isEmpty)
            #expect(loud.stdout == quiet.stdout)
            let clients = (0..<quiet.rows.count - 1).map { Int(quiet.field("clients", row: $0)!)! }.reduce(0, +)
            let count = MemoryEstimate.count(Double(clients))
            let lines = loud.stderr.split(separator: "\n")
            #expect(lines.last?.hasPrefix("simulate: \(count)/\(count) clients in ") == true, "\(loud.stderr)")
            Self.expectRunningLines(lines.dropLast())
        }
        #expect(Invocation(Self.burst + ["--progress"]).stderr.contains("simulate: 8,000/8,000 clients in"))
    }

    /// On a terminal the line is rewritten in place and ended by the last one; a run shorter than
    /// a second writes nothing unless asked (`aTerminalLineIsRewrittenAfterASecond` holds the
    /// timing: here a debug build may take longer).
    @Test func onATerminalTheLineIsRewritten() {
        for asked in [false, true] {
            let run = Invocation(Self.burst + (asked ? ["--progress"] : []), terminal: true)
            #expect(run.status == 0)
            guard asked || !run.stderr.isEmpty else { continue }
            let erase = "\u{1B}[K"
            #expect(run.stderr.hasPrefix("\r") && run.stderr.hasSuffix(erase + "\n"), "\(run.stderr)")
            let lines = run.stderr.dropLast(erase.count + 1).split(separator: "\r")
            #expect(lines.last?.hasPrefix("simulate: 8,000/8,000 clients in ") == true)
            Self.expectRunningLines(lines.dropLast().map { $0.dropLast(erase.count) })
        }
    }

    /// A sweep keeps its own `--progress` (points), and a run that fails says its error alone.
    @Test func sweepsAndFailuresKeepTheirMessages() throws {
        let sweep = Invocation([
            "sweep", "simulate", "--clients", "100,200", "--server", "outage:1s", "--jitter", "full", "--progress",
        ])
        #expect(sweep.status == 0 && sweep.stderr.contains("sweep: 2/2 points") && !sweep.stderr.contains("clients"))
        // 1.5e9 buckets of 1 ns are too many for a run of 1.5 s: a usage error, found mid-run.
        let failed = Invocation(Self.burst + ["--bucket", "1ns", "--progress"])
        #expect(failed.status == 64 && failed.stdout.isEmpty)
        #expect(failed.stderr.contains("backoff: Invalid value '1ns'") && !failed.stderr.contains(" clients in "))
    }
}
