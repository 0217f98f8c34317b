import BackoffPolicies
import Foundation
import Testing

@testable import BackoffCLI

/// `simulate --layer` end to end: the SPEC's keys reach the layers, the columns and the layer report
/// agree with the stack's closed form, and bad input writes nothing, side files included.
@Suite struct LayerOptionsTests {
    /// The SRE book's 4 attempts at three tiers, as README shows it: 64 attempts at the server per
    /// request, in the main row and in the layer report, whose rows add up tier by tier.
    @Test func theLayerReportCountsEveryTier() throws {
        let directory = TemporaryDirectory()
        let report = directory.file("layers.csv")
        let result = Invocation([
            "simulate", "--clients", "200", "--server", "always-fail", "--jitter", "full,none", "--max-attempts", "4",
            "--layer", "name=service,max-attempts=4", "--layer", "name=database-client,max-attempts=4",
            "--layer-report", report,
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        for row in 0..<2 {
            #expect(result.field("attempts_total", row: row) == "12800")
            #expect(result.field("client_attempts", row: row) == "800")
            #expect(result.field("work_amplification", row: row) == "64")
            #expect(result.field("formula_work_amplification", row: row) == "64")
            #expect(result.field("layers", row: row) == "2")
            #expect(result.field("orphaned_attempts", row: row) == "0")
        }
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == LayerRow.columns.map(\.name).joined(separator: ","))
        #expect(
            Array(lines.dropFirst()) == [
                "full,0,clients,200,800,0,0,200,0,0,0,4,0,0", "full,1,service,800,3200,0,0,800,0,0,0,16,0,0",
                "full,2,database-client,3200,12800,0,0,3200,0,0,0,64,0,0",
                "none,0,clients,200,800,0,0,200,0,0,0,4,0,0", "none,1,service,800,3200,0,0,800,0,0,0,16,0,0",
                "none,2,database-client,3200,12800,0,0,3200,0,0,0,64,0,0",
            ])
    }

    /// The bottom layer's hedge keys reach its hedge as `--hedge` reads them, and its run reports
    /// the hedge's columns beside their closed forms: a worker for every copy of 2,000 requests,
    /// Exp(10 ms) with the second copy after 30 ms, copies 1 + e^(-3) = 1.0498.
    @Test func aLayersHedgeKeysReachItsHedge() throws {
        let layer = try LayerOptions.layer(
            "name=db,hedge-per-try-timeout=50ms,hedge-max-attempts=3,hedge-backoff-base=10ms", number: 1,
            jitter: .full, command: "simulate")
        #expect(
            layer.hedging
                == (try Hedging(perTryTimeout: .milliseconds(50), copies: 3, backoffBase: .milliseconds(10))))
        let result = Invocation([
            "simulate", "--clients", "2000", "--server", "capacity", "--replicas", "2", "--workers", "4000",
            "--queue", "0", "--service", "exp:10ms", "--jitter", "none", "--max-attempts", "1",
            "--layer", "name=api", "--layer", "name=db,hedge-delay=30ms",
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let formula = try #require(result.field("formula_copies_per_request").flatMap(Double.init))
        #expect(abs(formula - (1 + exp(-3.0))) < 1e-9)
        // Simulated within 4 standard errors of it (HedgingSimulationTests' derivation).
        let copies = try #require(result.field("copies_per_request").flatMap(Double.init))
        let error = try #require(result.field("se_copies_per_request").flatMap(Double.init))
        #expect(abs(copies - formula) <= 4 * error, "copies \(copies), formula \(formula) ± \(4 * error)")
    }

    /// A hedge above the bottom layer, from the command line: 1,000 requests at t = 0, two workers
    /// each, 100 ms of service, copy 2 after 30 ms. Every request sends both copies, the first
    /// answers, and the second's `db` call is cancelled (its work, in service, runs on for
    /// nobody); the layer report counts both. The work bound counts the copies; a percentile above
    /// the bottom is refused by name.
    @Test func aHedgeAboveTheBottomLayerReportsItsCopies() throws {
        let directory = TemporaryDirectory()
        let report = directory.file("layers.csv")
        let result = Invocation([
            "simulate", "--clients", "1000", "--server", "capacity", "--workers", "2000", "--queue", "0",
            "--service", "fixed:100ms", "--jitter", "none", "--max-attempts", "1",
            "--layer", "name=api,hedge-delay=30ms", "--layer", "name=db", "--layer-report", report,
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.field("attempts_total") == "2000" && result.field("successes") == "1000")
        #expect(result.field("wasted_work") == "1000")
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").dropFirst()
        let columns = LayerRow.columns.map(\.name)
        let (copies, cancelled) = (columns.firstIndex(of: "hedge_copies")!, columns.firstIndex(of: "cancelled")!)
        let fields = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(fields.map { $0[copies] } == ["0", "1000", "0"] && fields.map { $0[cancelled] } == ["0", "0", "1000"])
        // Hedges above the bottom multiply the requests below them: 64 copies at two layers above a
        // third are 1,000 x 64 x 64 requests to it, which --work-limit weighs before the run.
        let explosive = Invocation([
            "simulate", "--clients", "1000", "--server", "always-fail", "--max-attempts", "1", "--jitter", "none",
            "--work-limit", "1e6", "--layer", "name=a,max-attempts=1,hedge-delay=0ms,hedge-max-attempts=64",
            "--layer", "name=b,max-attempts=1,hedge-delay=0ms,hedge-max-attempts=64", "--layer",
            "name=c,max-attempts=1",
        ])
        #expect(explosive.status == 64 && explosive.stdout.isEmpty)
        #expect(
            explosive.stderr.contains(
                "up to 4,096,000 server attempts (1,000 clients x 1 attempts x 1 at a layer x "
                    + "64 copies x 1 at a layer x 64 copies x 1 at a layer per jitter mode)"), "\(explosive.stderr)")
        let clients = Invocation([
            "simulate", "--clients", "1000", "--server", "always-fail", "--max-attempts", "1", "--jitter", "none",
            "--work-limit", "1e6", "--hedge", "on:delay=0ms:max-attempts=64",
            "--layer", "name=a,max-attempts=1,hedge-delay=0ms,hedge-max-attempts=64", "--layer",
            "name=c,max-attempts=1",
        ])
        #expect(
            clients.stderr.contains(
                "up to 4,096,000 server attempts (1,000 clients x 1 attempts x 64 copies x 1 at a layer x 64 copies x "
                    + "1 at a layer per jitter mode)"), "\(clients.stderr)")
        let refused = Invocation([
            "simulate", "--clients", "10", "--server", "capacity", "--layer", "name=api,hedge-percentile=0.9",
            "--layer", "name=db",
        ])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains("layer 'api': a percentile hedge (hedge-percentile) sits at the bottom layer only"))
    }

    /// Hedges at every layer, of both rules, over replicas, with per-try timeouts and a concurrency
    /// cap: a random search found this stack trapping (a copy of Envoy's rule failing in the
    /// instant its backoff's timer fired drew a backoff too many; e0ef8f1's parent traps on it,
    /// jitter none), and it runs; so does a second it found.
    @Test func aStackOfHedgesRuns() {
        let arguments = [
            "simulate", "--seed", "49", "--server", "capacity", "--workers", "8", "--queue", "0", "--service",
            "fixed:20ms", "--replicas", "3", "--arrivals", "poisson:200", "--duration", "1s", "--max-attempts", "1",
            "--jitter", "none",
            "--layer", "name=l0,max-attempts=1,hedge-per-try-timeout=20ms,hedge-max-attempts=8,hedge-cancel=yes",
            "--layer", "name=l1,max-attempts=1,hedge-per-try-timeout=1ms,hedge-max-attempts=64",
            "--layer", "name=l2,max-attempts=2,timeout=2ms,hedge-delay=0ms,hedge-cancel=yes",
            "--layer", "name=l3,max-attempts=3,timeout=20ms,concurrency=1",
        ]
        let run = Invocation(arguments)
        #expect(run.status == 0 && run.stdout.hasPrefix("jitter,") && run.stderr.isEmpty, "\(run.stderr)")
        // A second: the clients' hedge with a cancellation delay answered while a copy's call had
        // yet to open, and its delayed cancellation was scheduled for a call that did not exist.
        let delayed = Invocation([
            "simulate", "--seed", "61", "--server", "bernoulli:0.3", "--arrivals", "poisson:200", "--duration", "1s",
            "--max-attempts", "3", "--jitter", "none", "--timeout", "50ms",
            "--hedge", "on:per-try-timeout=5ms:max-attempts=4:backoff-base=1ms:cancel-delay=2ms",
            "--layer", "name=l0,max-attempts=2,timeout=20ms,hedge-per-try-timeout=5ms",
            "--layer", "name=l1,max-attempts=2", "--layer", "name=l2,max-attempts=3",
        ])
        #expect(delayed.status == 0 && delayed.stdout.hasPrefix("jitter,"), "\(delayed.stderr)")
    }

    /// A layer follows the rows' jitter unless its SPEC names one, takes a preset's policy and
    /// budget, and its keys override the preset's.
    @Test func aSpecReachesItsLayer() throws {
        let options = try ParsedOptions(
            command: "simulate", specs: SimulateCommand.specs,
            tokens: ArgumentLexer.tokens([
                "--clients", "10", "--jitter", "equal,decorrelated", "--decorrelated-factor", "4", "--layer",
                "name=api,timeout=250ms,concurrency=8", "--layer", "name=db,preset=aws-sdk-standard,max-attempts=2",
                "--layer", "jitter=none,budget=ratio:percent=0.2",
            ]))
        let command = try SimulateCommand(options)
        let (equal, decorrelated) = (command.scenarios[0].layers, command.scenarios[1].layers)
        #expect(equal.map(\.name) == ["api", "db", "layer3"])
        #expect(equal[0].policy.jitter == .equal && decorrelated[0].policy.jitter == .decorrelated(factor: 4))
        #expect(equal[0].timeout == .milliseconds(250) && equal[0].concurrency == 8)
        #expect(equal[1].policy.maxAttempts == 2 && equal[1].limits.budget != nil)
        #expect(equal[2].policy.jitter == .disabled && decorrelated[2].policy.jitter == .disabled)
        #expect(equal[2].limits.budget != nil && equal[2].limits.breaker == nil)
    }

    /// A bad SPEC is a usage error that leaves the table and the layer report as they were, and
    /// leaves no temporary file.
    @Test func aBadSpecWritesNoFile() throws {
        let directory = TemporaryDirectory()
        let output = try directory.write("keep me\n", to: "table.csv")
        let report = try directory.write("keep me too\n", to: "layers.csv")
        let result = Invocation([
            "simulate", "--clients", "10", "--layer", "max-attempts=3", "--layer", "base=fast", "--output", output,
            "--layer-report", report,
        ])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("backoff: '--layer base=fast' (layer 2): invalid value 'fast' for key 'base'"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "keep me too\n")
        #expect(directory.contents.sorted() == ["layers.csv", "table.csv"])
    }

    /// The layer report and the timeline cannot share a file, nor go to standard output with the table.
    @Test func theLayerReportNeedsAFileOfItsOwn() {
        let same = Invocation([
            "simulate", "--clients", "10", "--layer", "name=a", "--timeline", "x.csv", "--layer-report", "x.csv",
        ])
        #expect(same.status == 64 && same.stderr.contains("name the same file 'x.csv'"))
        let both = Invocation(["simulate", "--clients", "10", "--layer", "name=a", "--layer-report", "-"])
        #expect(
            both.status == 64
                && both.stderr.contains("'--layer-report -' and the table would both go to standard output"))
    }

    /// tune searches a layer's key through the layer's SPEC: the candidates differ only there, and
    /// the searched column holds the layer key's values.
    @Test func tuneSearchesALayersKey() {
        let result = Invocation([
            "tune", "--clients", "200", "--server", "always-fail", "--max-attempts", "2", "--layer", "name=api",
            "--objective", "attempts_total", "--search", "layer1.max-attempts=1..4", "--design", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let column = result.rows.first?.firstIndex(of: "layer1.max-attempts")
        let objective = result.rows.first?.firstIndex(of: "attempts_total")
        guard let column, let objective else {
            Issue.record("missing columns: \(result.rows.first ?? [])")
            return
        }
        for row in result.rows.dropFirst() {
            // Always-fail: the server sees 200 × 2 × n attempts.
            #expect(Int(row[objective]) == 400 * Int(row[column])!, "\(row)")
        }
    }
}
