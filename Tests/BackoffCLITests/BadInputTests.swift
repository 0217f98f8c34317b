import BackoffPolicies
import Foundation
import Testing

@testable import BackoffCLI

/// Bad input: exit 64, a message naming the value and the accepted form, nothing on stdout, and an
/// existing --output file left as it was.
@Suite struct BadInputTests {
    static let durationForm = "expected a duration greater than 0 with a unit (ns, us, ms, s, m, h), e.g. 100ms"
    static let serverForm =
        "expected always-fail, bernoulli:P with 0 <= P <= 1 (e.g. bernoulli:0.5), outage:DURATION (e.g. outage:2s), contention, capacity, trace:FILE (a CSV of time_s,failure_probability), or ratelimit:RATE[:burst=B][:share=F] (RATE > 0 a second or a minute, e.g. 10/s or 600/m; B >= 1 whole tokens, default 1; F the share of clients limited, 0 < F <= 1, default 1), or deadline[:workers=C][:service=MEAN][:queue=K] (C >= 1 workers, default 1; MEAN > 0 the exponential service time's mean, default 20ms; K >= 0 queue places, default no limit)"

    static let cases: [(id: String, arguments: [String], message: String)] = [
        ("base zero", ["waits", "--base", "0ms"], "Invalid value '0ms' for '--base <duration>': \(durationForm)"),
        ("base bare zero", ["waits", "--base", "0"], "Invalid value '0' for '--base <duration>': \(durationForm)"),
        ("base negative", ["waits", "--base", "-1"], "Invalid value '-1' for '--base <duration>': \(durationForm)"),
        ("base nan", ["waits", "--base", "nan"], "Invalid value 'nan' for '--base <duration>': \(durationForm)"),
        ("base inf", ["waits", "--base", "inf"], "Invalid value 'inf' for '--base <duration>': \(durationForm)"),
        (
            "duration with a space", ["simulate", "--base", "10 ms"],
            "Invalid value '10 ms' for '--base <duration>': \(durationForm)"
        ),
        (
            "duration unknown unit", ["waits", "--base", "5x"],
            "Invalid value '5x' for '--base <duration>': \(durationForm)"
        ),
        (
            "duration negative", ["formula", "--base", "-3s"],
            "Invalid value '-3s' for '--base <duration>': \(durationForm)"
        ),
        ("duration empty", ["waits", "--base", ""], "Invalid value '' for '--base <duration>': \(durationForm)"),
        (
            "multiplier below one", ["waits", "--multiplier", "0.5"],
            "Invalid value '0.5' for '--multiplier <number>': expected a number >= 1, e.g. 2"
        ),
        (
            "cap below base", ["waits", "--cap", "50ms"],
            "Invalid value '50ms' for '--cap <duration>': the cap must be at least the base (100ms); "
                + "expected a duration at least the base, with a unit (e.g. 5s), or none"
        ),
        (
            "zero attempts", ["waits", "--max-attempts", "0"],
            "Invalid value '0' for '--max-attempts <count>': out of range; expected a whole number from 1 to 1000000000, e.g. 5"
        ),
        (
            "both budgets", ["simulate", "--max-attempts", "3", "--max-retries", "2"],
            "Use either '--max-attempts' or '--max-retries', not both (max retries N means N + 1 attempts)"
        ),
        (
            "unknown jitter", ["waits", "--jitter", "none,fulll"],
            "Invalid value 'none,fulll' for '--jitter <list>': unknown jitter 'fulll' (did you mean 'full'?); "
                + "expected a comma-separated list of none, full, equal, proportional:F, upward:F, additive:D, decorrelated, decorrelated-monotone, polly-v2, exponential, or all"
        ),
        ("unknown option", ["waits", "--atempts", "3"], "Unknown option '--atempts'. Did you mean '--max-attempts'?"),
        ("missing value", ["waits", "--base"], "Missing value for '--base <duration>'"),
        ("missing value before option", ["waits", "--base", "--runs", "3"], "Missing value for '--base <duration>'"),
        (
            "zero clients", ["simulate", "--clients", "0"],
            "Invalid value '0' for '--clients <count>': out of range; expected a whole number from 1 to 1099511627776, e.g. 1000"
        ),
        (
            "more clients than an event-ordered run holds",
            ["simulate", "--clients", "300000000", "--server", "capacity"],
            "Invalid value '300000000' for '--clients <count>': at most 268435455 clients fit in one run, or "
                + "1099511627776 in a burst against always-fail, bernoulli, outage or trace with no shared limits "
                + "(budget, breaker, throttle, rate limiter) and no layers (those run client by client), got 300000000; "
                + "expected a whole number from 1 to 1099511627776, e.g. 1000"
        ),
        (
            "zero runs", ["waits", "--runs", "0"],
            "Invalid value '0' for '--runs <count>': out of range; expected a whole number from 1 to 1000000000000, e.g. 10000"
        ),
        (
            "zero bucket", ["simulate", "--bucket", "0ms"],
            "Invalid value '0ms' for '--bucket <duration>': expected a duration greater than 0 with a unit, e.g. 10ms"
        ),
        (
            "rate limit of zero", ["simulate", "--server", "ratelimit:0/s"],
            "Invalid value 'ratelimit:0/s' for '--server <model>': \(serverForm)"
        ),
        (
            "rate limit without a unit", ["simulate", "--server", "ratelimit:10"],
            "Invalid value 'ratelimit:10' for '--server <model>': \(serverForm)"
        ),
        (
            "burst of zero", ["simulate", "--server", "ratelimit:10/s:burst=0"],
            "Invalid value 'ratelimit:10/s:burst=0' for '--server <model>': \(serverForm)"
        ),
        (
            "limited share above one", ["simulate", "--server", "ratelimit:10/s:share=1.5"],
            "Invalid value 'ratelimit:10/s:share=1.5' for '--server <model>': \(serverForm)"
        ),
        (
            "limited share of zero", ["simulate", "--server", "ratelimit:10/s:share=0"],
            "Invalid value 'ratelimit:10/s:share=0' for '--server <model>': \(serverForm)"
        ),
        (
            "share given twice", ["simulate", "--server", "ratelimit:10/s:share=0.5:share=0.2"],
            "Invalid value 'ratelimit:10/s:share=0.5:share=0.2' for '--server <model>': \(serverForm)"
        ),
        (
            "transient failures of a rate limiter",
            ["simulate", "--server", "ratelimit:10/s", "--failure-kind", "transient"],
            "'--failure-kind transient' does not fit '--server ratelimit:10/s': its failures are throttling errors"
        ),
        (
            "unknown server", ["simulate", "--server", "outtage:2s"],
            "Invalid value 'outtage:2s' for '--server <model>': unknown model 'outtage' (did you mean 'outage'?); \(serverForm)"
        ),
        (
            "outage without duration", ["simulate", "--server", "outage:"],
            "Invalid value 'outage:' for '--server <model>': \(serverForm)"
        ),
        (
            "probability above one", ["simulate", "--server", "bernoulli:1.5"],
            "Invalid value 'bernoulli:1.5' for '--server <model>': \(serverForm)"
        ),
        (
            "unknown command", ["simulat"],
            "Unknown command 'simulat'. Did you mean 'simulate'? Commands: schedule, formula, waits, simulate, presets, limiter, sweep, tune, check, lint, explain, completion, version, help"
        ),
        (
            "sweep range backwards", ["sweep", "simulate", "--clients", "10..1:5"],
            "Invalid list or range '10..1:5' for '--clients <count>': the range runs backwards (10 > 1); "
                + "expected A <= B in A..B:STEP or A..B*FACTOR, e.g. 10..190:10 or 1..1000*10"
        ),
        (
            "sweep range without end", ["sweep", "waits", "--multiplier", "1.."],
            "Invalid list or range '1..' for '--multiplier <number>': expected A..B:STEP or A..B*FACTOR, e.g. 10..190:10 or 1..1000*10"
        ),
        (
            "sweep step zero", ["sweep", "simulate", "--clients", "1..100:0"],
            "Invalid list or range '1..100:0' for '--clients <count>': the step must be greater than 0"
        ),
        (
            "sweep too many points", ["sweep", "waits", "--runs", "1..4000:1", "--max-attempts", "1..4000:1"],
            "The grid has 64000000 points, more than 10000000: narrow the ranges, or add --force"
        ),
        (
            "shard beyond count", ["sweep", "waits", "--shard", "3/2"],
            "Invalid value '3/2' for '--shard <K/N>': expected K/N with 1 <= K <= N <= 10000000, e.g. 2/8"
        ),
        (
            "shard zero", ["sweep", "waits", "--shard", "0/4"],
            "Invalid value '0/4' for '--shard <K/N>': expected K/N with 1 <= K <= N <= 10000000, e.g. 2/8"
        ),
        (
            "zero jobs", ["sweep", "waits", "--jobs", "0"],
            "Invalid value '0' for '--jobs <count>': out of range; expected a whole number from 1 to 1024, e.g. 2"
        ),
        (
            "bad sweep point", ["sweep", "waits", "--multiplier", "0.5,2"],
            "Invalid value '0.5' for '--multiplier <number>': expected a number >= 1, e.g. 2 (at sweep point multiplier=0.5, jitter=none)"
        ),
        (
            "zero workers", ["simulate", "--server", "capacity", "--workers", "0"],
            "Invalid value '0' for '--workers <count>': out of range; expected a whole number from 1 to 1000000, e.g. 4"
        ),
        (
            "negative queue", ["simulate", "--server", "capacity", "--queue", "-1"],
            "Invalid value '-1' for '--queue <count>': expected a whole number from 0 to 1000000000, e.g. 100"
        ),
        (
            "zero service time", ["simulate", "--server", "capacity", "--service", "exp:0ms"],
            "Invalid value 'exp:0ms' for '--service <distribution>': expected fixed:DURATION, exp:MEAN or lognormal:MEAN:SD "
                + "with durations greater than 0, or mixture:W@DIST;W@DIST... with weights summing to 1, e.g. exp:20ms"
        ),
        (
            "zero timeout", ["simulate", "--server", "capacity", "--timeout", "0ms"],
            "Invalid value '0ms' for '--timeout <duration>': expected a duration greater than 0 (e.g. 200ms), or none"
        ),
        (
            "degradation backwards",
            ["simulate", "--server", "capacity", "--degrade-from", "3s", "--degrade-until", "1s"],
            "Invalid value '1s' for '--degrade-until <duration>': the degradation window ends before it starts (--degrade-from 3s); "
                + "expected a duration after --degrade-from, e.g. 3s"
        ),
        (
            "degraded to zero",
            ["simulate", "--server", "capacity", "--degrade-from", "1s", "--degrade-until", "2s", "--degrade-to", "0"],
            "Invalid value '0' for '--degrade-to <number>': expected a number in (0, 1], e.g. 0.25"
        ),
        (
            "permanent above one", ["simulate", "--permanent", "1.5"],
            "Invalid value '1.5' for '--permanent <fraction>': expected a number in [0, 1], e.g. 0.05"
        ),
        (
            "poisson zero", ["simulate", "--arrivals", "poisson:0"],
            "Invalid value 'poisson:0' for '--arrivals <process>': expected burst, uniform:DURATION (e.g. uniform:1s) or poisson:RATE "
                + "with RATE > 0 (e.g. poisson:500)"
        ),
        (
            "zero requests", ["simulate", "--requests-per-client", "0"],
            "Invalid value '0' for '--requests-per-client <count>': out of range; expected a whole number from 1 to 1000000000, e.g. 10"
        ),
        (
            "recovery without recovery", ["simulate", "--server", "always-fail", "--retry-trigger", "recovery"],
            "Invalid value 'recovery' for '--retry-trigger <trigger>': the recovery trigger needs a server that recovers "
                + "(outage, a trace that ends at probability 0, or capacity with --degrade-from/--degrade-until or a --capacity-trace back at 1); expected timer, recovery or recovery:DURATION (e.g. recovery:50ms)"
        ),
        (
            "unknown retry-after mode", ["simulate", "--retry-after", "obey"],
            "Invalid value 'obey' for '--retry-after <mode>': expected one of ignore, honor, max"
        ),
        (
            "check without file", ["check"],
            "Missing the table to check: expected 'backoff check FILE [--baseline OLD.csv]'"
        ),
        (
            "check missing file", ["check", "/nonexistent/table.csv"],
            "No such file '/nonexistent/table.csv': expected a CSV table written by backoff"
        ),
        ("stray argument", ["waits", "extra"], "Unexpected argument 'extra'"),
        ("repeated option", ["waits", "--runs", "5", "--runs", "6"], "Option '--runs' is given more than once"),
        (
            "proportional fraction out of range", ["waits", "--jitter", "proportional:1.5"],
            "Invalid value 'proportional:1.5' for '--jitter <list>': 'proportional:1.5': proportional:F takes a fraction F in [0, 1], "
                + "e.g. proportional:0.5; \(jitterForm)"
        ),
        (
            "proportional without its fraction", ["formula", "--jitter", "full,proportional"],
            "Invalid value 'full,proportional' for '--jitter <list>': proportional jitter needs its fraction F in [0, 1], "
                + "e.g. proportional:0.5; \(jitterForm)"
        ),
        (
            "additive without a unit", ["simulate", "--jitter", "additive:5"],
            "Invalid value 'additive:5' for '--jitter <list>': 'additive:5': additive:D takes a duration D >= 0 with a unit, "
                + "e.g. additive:1s; \(jitterForm)"
        ),
        (
            "misspelt cap mode", ["waits", "--cap-mode", "clmp"],
            "Invalid value 'clmp' for '--cap-mode <mode>': did you mean 'clamp'?; expected nominal or clamp"
        ),
        (
            "cap mode a jitter cannot follow", ["formula", "--jitter", "polly-v2", "--cap-mode", "nominal"],
            "Invalid value 'nominal' for '--cap-mode <mode>': polly-v2 jitter cannot follow cap mode nominal; it accepts clamp; "
                + "expected nominal or clamp"
        ),
        (
            "overflowing waits", ["formula", "--cap", "none", "--multiplier", "10", "--max-attempts", "200"],
            "Invalid value '200' for '--max-attempts <count>': the longest total wait would be 1.1111111111111112e+197 s, "
                + "beyond what virtual time holds (about 146 years); set a cap or allow fewer attempts; expected a whole number from 1 to 1000000000, e.g. 5"
        ),
        (
            "mixture weights",
            ["simulate", "--server", "capacity", "--service", "mixture:0.9@fixed:0ms;0.05@fixed:2s"],
            "Invalid value 'mixture:0.9@fixed:0ms;0.05@fixed:2s' for '--service <distribution>': the weights must sum to "
                + "1, got 0.9500000000000001; expected fixed:DURATION, exp:MEAN or lognormal:MEAN:SD with durations greater "
                + "than 0, or mixture:W@DIST;W@DIST... with weights summing to 1, e.g. exp:20ms"
        ),
        (
            "empty layer", ["simulate", "--clients", "10", "--layer", ""],
            "'--layer' (layer 1) is empty; expected comma-separated KEY=VALUE pairs, e.g. name=api,max-attempts=3,timeout=1s"
        ),
        (
            "unknown layer key", ["simulate", "--clients", "10", "--layer", "name=api", "--layer", "max-attemps=3"],
            "'--layer max-attemps=3' (layer 2): unknown key 'max-attemps'. Did you mean 'max-attempts'? A layer takes "
                + "preset, grpc-service-config, grpc-method, config, config-route, jitter, schedule, base, multiplier, "
                + "increment, cap, cap-mode, max-attempts, max-retries, max-elapsed, decorrelated-factor, first-retry, "
                + "granularity, budget, breaker, "
                + "name, timeout, concurrency, limit, hedge-delay, hedge-percentile, hedge-per-try-timeout, hedge-max-attempts, "
                + "hedge-cancel, hedge-cancel-delay, hedge-backoff-base, hedge-backoff-max"
        ),
        (
            "a layer's hedge value smuggling keys",
            ["simulate", "--server", "capacity", "--layer", "name=db,hedge-delay=1ms:max-attempts=9"],
            "'--layer name=db,hedge-delay=1ms:max-attempts=9' (layer 1): the hedge: 'hedge-delay=1ms:max-attempts=9': "
                + "hedge-delay takes a duration of at least 0 and at most 2^62 ns (1281023h, about 146 years), e.g. 10ms"
        ),
        (
            "a layer's hedge with two rules: every key named as the layer spells it",
            ["simulate", "--server", "capacity", "--layer", "hedge-delay=1ms,hedge-percentile=0.9"],
            "'--layer hedge-delay=1ms,hedge-percentile=0.9' (layer 1): the hedge: 'hedge-percentile=0.9': give one of "
                + "hedge-delay, hedge-percentile (Finagle's) and hedge-per-try-timeout (Envoy's), not hedge-delay and "
                + "hedge-percentile"
        ),
        (
            "a layer's hedge with a cancellation delay but no cancellation",
            ["simulate", "--server", "capacity", "--layer", "hedge-delay=1ms,hedge-cancel=no,hedge-cancel-delay=1ms"],
            "'--layer hedge-delay=1ms,hedge-cancel=no,hedge-cancel-delay=1ms' (layer 1): the hedge: "
                + "'hedge-cancel-delay=1ms': hedge-cancel-delay needs hedge-cancel=yes (without cancellation the "
                + "losers run to their end)"
        ),
        (
            "a layer's hedge without its rule",
            ["simulate", "--server", "capacity", "--layer", "name=db,hedge-max-attempts=3"],
            "'--layer name=db,hedge-max-attempts=3' (layer 1): the hedge needs hedge-delay=DURATION, "
                + "hedge-percentile=Q or hedge-per-try-timeout=DURATION (when each next copy goes), e.g. hedge-delay=10ms"
        ),
        (
            "a layer's bad hedge value",
            ["simulate", "--server", "capacity", "--layer", "name=db,hedge-delay=soon"],
            "'--layer name=db,hedge-delay=soon' (layer 1): the hedge: 'hedge-delay=soon': hedge-delay takes a duration "
                + "of at least 0 and at most 2^62 ns (1281023h, about 146 years), e.g. 10ms"
        ),
        (
            "bad layer value", ["simulate", "--clients", "10", "--layer", "name=db,max-attempts=0"],
            "'--layer name=db,max-attempts=0' (layer 1): invalid value '0' for key 'max-attempts': out of range; "
                + "expected a whole number from 1 to 1000000000, e.g. 5"
        ),
        (
            "layer key twice", ["simulate", "--clients", "10", "--layer", "base=10ms,base=20ms"],
            "'--layer base=10ms,base=20ms' (layer 1): the key 'base' is given more than once"
        ),
        (
            "layer rule between keys", ["simulate", "--clients", "10", "--layer", "base=1s,cap=500ms"],
            "'--layer base=1s,cap=500ms' (layer 1): invalid value '500ms' for key 'cap': the cap must be at least the "
                + "base (1s); expected a duration at least the base, with a unit (e.g. 5s), or none"
        ),
        (
            "layer timeout of 0", ["simulate", "--clients", "10", "--layer", "timeout=0s"],
            "'--layer timeout=0s' (layer 1): invalid value '0s' for key 'timeout': the per-try timeout must be greater "
                + "than 0; expected a duration greater than 0 (e.g. 500ms), or none"
        ),
        (
            "layer without a pair", ["simulate", "--clients", "10", "--layer", "max-attempts"],
            "'--layer max-attempts' (layer 1): 'max-attempts' is not a KEY=VALUE pair; expected comma-separated "
                + "KEY=VALUE pairs, e.g. name=api,max-attempts=3,timeout=1s"
        ),
        (
            "deadline without layers", ["simulate", "--clients", "10", "--deadline", "2s"],
            "'--deadline' needs a stack of layers ('--layer SPEC'); for one tier, '--max-elapsed' stops the retries "
                + "and '--timeout' an attempt"
        ),
        (
            "propagation without deadline",
            ["simulate", "--clients", "10", "--layer", "name=a", "--deadline-propagation"],
            "'--deadline-propagation' needs '--deadline DURATION'"
        ),
        (
            "layers in a sweep", ["sweep", "simulate", "--clients", "10,20", "--layer", "max-attempts=2"],
            "'--layer' is not available in a sweep: a layer's SPEC holds commas, which a sweep reads as a list of values; "
                + "search a stack with 'backoff tune' (keys such as layer2.max-attempts), or loop over 'backoff simulate' "
                + "in the shell"
        ),
        (
            "a layer key beyond the layers",
            [
                "tune", "--clients", "10", "--layer", "name=a", "--objective", "work_amplification", "--search",
                "layer2.max-attempts=1..3",
            ], "'layer2.max-attempts' is searched, but only 1 '--layer' is given"
        ),
    ]

    static let jitterForm =
        "expected a comma-separated list of none, full, equal, proportional:F, upward:F, additive:D, decorrelated, decorrelated-monotone, polly-v2, exponential, or all"

    @Test(arguments: cases)
    func badInputExits64WithAMessageAndWritesNothing(id: String, arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let output = try directory.write("keep me\n", to: "table.csv")
        // `check` prints a report, not a table: it has no --output.
        let result = Invocation(arguments + (arguments.first == "check" ? [] : ["--output", output]))
        #expect(result.status == 64, "\(id)")
        #expect(result.stdout.isEmpty, "\(id)")
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init)
        #expect(firstLine == "backoff: " + message, "\(id)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n", "\(id)")
        #expect(directory.contents == ["table.csv"], "\(id): no temporary file may remain")
    }

    @Test func noArgumentsIsAUsageError() {
        let result = Invocation([])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.contains("Missing command"))
    }

    @Test func unwritableOutputIsAFailureWithNoData() {
        let result = Invocation(["formula", "--output", "/nonexistent-directory/table.csv"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("backoff: Cannot write '/nonexistent-directory/table.csv'"))
    }
}

@Suite struct WarningTests {
    /// A Retry-After mode with a server that sends none is a warning on stderr, not silence, and
    /// not an error: the table is still written.
    @Test func aRetryAfterModeWithoutRetryAfterIsAWarning() {
        let result = Invocation(["simulate", "--clients", "10", "--server", "always-fail", "--retry-after", "honor"])
        #expect(result.status == 0 && result.stdout.hasPrefix("jitter,"))
        #expect(result.stderr.contains("warning: '--retry-after honor' has no effect"))
        let quiet = Invocation(["simulate", "--clients", "10", "--server-retry-after", "1s", "--retry-after", "honor"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
    }

    /// A bottom layer's per-try timeout cannot fire against a server that answers at once.
    @Test func aBottomLayerTimeoutAgainstAnInstantServerIsAWarning() {
        let result = Invocation([
            "simulate", "--clients", "10", "--server", "bernoulli:0.5", "--layer", "name=api", "--layer",
            "name=db,timeout=1s",
        ])
        #expect(result.status == 0 && result.stdout.hasPrefix("jitter,"))
        #expect(
            result.stderr.contains(
                "warning: the bottom layer's timeout (layer 'db') has no effect: the bernoulli server answers at once"))
    }

    @Test func optionsOfAnotherServerAreWarnedAbout() {
        let result = Invocation(["simulate", "--clients", "10", "--workers", "8"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: '--workers' does not apply to the outage server; ignored"))
    }

    /// A policy option that no policy uses is not checked (the model that checks it never sees it),
    /// so it must not pass in silence either.
    @Test func policyOptionsThatNoPolicyUsesAreWarnedAbout() {
        let constant = Invocation([
            "waits", "--runs", "10", "--schedule", "constant", "--multiplier", "0.5", "--increment", "1s",
        ])
        #expect(constant.status == 0 && constant.stdout.hasPrefix("jitter,"))
        #expect(
            constant.stderr.contains(
                "warning: '--multiplier' has no effect: the constant schedule does not use it; ignored"))
        #expect(
            constant.stderr.contains(
                "warning: '--increment' has no effect: the constant schedule does not use it; ignored"))
        let factor = Invocation(["formula", "--jitter", "full", "--decorrelated-factor", "1"])
        #expect(
            factor.status == 0
                && factor.stderr.contains(
                    "warning: '--decorrelated-factor' has no effect: no jitter mode is decorrelated")
        )
        let used = Invocation(["formula", "--decorrelated-factor", "1"])
        #expect(used.status == 64, "used by decorrelated jitter, the value is checked")
        #expect(Invocation(["waits", "--runs", "10", "--multiplier", "3"]).stderr.isEmpty)
    }
}

/// Errors found by the model (`Scenario.init`, `BackoffPolicy.init`) name the option they concern.
@Suite struct ModelErrorTests {
    static let cases: [(arguments: [String], message: String)] = [
        (
            ["simulate", "--permanent", "0.1", "--server", "contention"],
            "Invalid value '0.1' for '--permanent <fraction>': permanent failures do not apply to the contention model; "
                + "expected a number in [0, 1], e.g. 0.05"
        ),
        (
            ["simulate", "--requests-per-client", "0"],
            "Invalid value '0' for '--requests-per-client <count>': out of range; expected a whole number from 1 to 1000000000, e.g. 10"
        ),
        (
            ["simulate", "--arrivals", "poisson:0"],
            "Invalid value 'poisson:0' for '--arrivals <process>': expected burst, uniform:DURATION (e.g. uniform:1s) "
                + "or poisson:RATE with RATE > 0 (e.g. poisson:500)"
        ),
        (
            ["simulate", "--arrivals", "poisson:10", "--duration", "0s"],
            "Invalid value '0s' for '--duration <duration>': expected a duration greater than 0, e.g. 10s"
        ),
        (
            ["simulate", "--server", "capacity", "--service", "lognormal:0ms:1ms"],
            "Invalid value 'lognormal:0ms:1ms' for '--service <distribution>': expected fixed:DURATION, exp:MEAN or "
                + "lognormal:MEAN:SD with durations greater than 0, or mixture:W@DIST;W@DIST... with weights summing to 1, "
                + "e.g. exp:20ms"
        ),
        (
            ["simulate", "--retry-trigger", "recovery", "--server", "bernoulli:0.5"],
            "Invalid value 'recovery' for '--retry-trigger <trigger>': the recovery trigger needs a server that recovers "
                + "(outage, a trace that ends at probability 0, or capacity with --degrade-from/--degrade-until or a --capacity-trace back at 1); expected timer, recovery or recovery:DURATION (e.g. recovery:50ms)"
        ),
        (
            ["simulate", "--retry-after", "honour"],
            "Invalid value 'honour' for '--retry-after <mode>': did you mean 'honor'?; expected one of ignore, honor, max"
        ),
    ]

    @Test(arguments: 0..<7)
    func theModelsErrorNamesTheOption(case index: Int) {
        let (arguments, message) = Self.cases[index]
        let result = Invocation(arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments)")
        #expect(result.stderr.hasPrefix("backoff: \(message)\n"), "\(arguments): \(result.stderr)")
    }
}

@Suite struct LimitSpecTests {
    @Test func budgetsBreakersAndThrottlesParseOrNameTheForm() {
        #expect(BudgetSpec.value("none") == .some(nil))
        #expect(BudgetSpec.value("token") == .some(.tokenBucket(.grpcExample)))
        #expect(BudgetSpec.value("aws-quota") == .some(.quota(.awsStandard)))
        #expect(BudgetSpec.value("token:max=0") == nil)
        #expect(BudgetSpec.value("token:ratio=x") == nil)
        #expect(BudgetSpec.value("token:volume=3") == nil)
        #expect(BudgetSpec.value("ratio:percent=1.5") == nil)
        #expect(BudgetSpec.value("concurrency:min=-1") == nil)
        #expect(BreakerSpec.value("on:threshold=0") == nil)
        #expect(BreakerSpec.value("on:open=5") == nil, "a duration needs a unit")
        #expect(ThrottleSpec.value("adaptive:k=0.5") == nil)
        if case .sre(let throttle)?? = ThrottleSpec.value("adaptive:k=2") {
            #expect(throttle.k == 2)
        } else {
            Issue.record("adaptive:k=2 should be the SRE book's throttle")
        }
        let botocoreShared = AdaptiveRateLimiting(sdk: .botocore, scope: .shared)
        #expect(ThrottleSpec.value("aws-adaptive") == .some(.some(.awsAdaptive(botocoreShared))))
        #expect(
            ThrottleSpec.value("aws-adaptive:sdk=java-v2:scope=per-client")
                == .some(.some(.awsAdaptive(AdaptiveRateLimiting(sdk: .javaV2, scope: .perClient)))))
        #expect(ThrottleSpec.value("aws-adaptive:sdk=java") == nil, "java-v2 is the SDK's name")
        #expect(ThrottleSpec.value("aws-adaptive:scope=everyone") == nil)
        let result = Invocation(["simulate", "--budget", "token:max=0"])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "backoff: Invalid value 'token:max=0' for '--budget <budget>': the token bucket's max must be greater than 0, got 0.0; "
                    + "expected none, token"))
    }

    /// A spec's parameter is named with what it takes and its range, not only the option's whole form.
    @Test(arguments: [
        (
            ["--budget", "ratio:percent=10"],
            "'percent=10': percent takes a fraction (0.1 is 10 %, as Finagle's percentCanRetry) from 0 to 1"
        ),
        (
            ["--budget", "concurrency:min=99999999999"],
            "'min=99999999999': min takes a whole number from 0 to 1000000000"
        ),
        (["--budget", "token:volume=3"], "unknown parameter 'volume' ('token' takes max, ratio)"),
        (["--budget", "tokn"], "unknown kind 'tokn' (did you mean 'token'?)"),
        (
            ["--breaker", "on:threshold=2"],
            "'threshold=2': threshold takes a fraction of failures (0.5 is 50 %) from 0 to 1"
        ),
        (["--breaker", "on:probes=0"], "'probes=0': probes takes a whole number from 1 to 1000000000"),
        (["--breaker", "on:open=5"], "'open=5': open takes a duration greater than 0 and at most 2^62 ns"),
        (["--throttle", "adaptive:k=0.5"], "'k=0.5': k takes a number (the SRE book's K) from 1 to 1000000000"),
        (["--throttle", "adaptive:window=1281024h"], "'window=1281024h': window takes a duration greater than 0"),
        (
            ["--hedge", "on:dela=10ms"],
            "unknown parameter 'dela' ('on' takes delay, percentile, per-try-timeout, max-attempts, cancel, "
                + "cancel-delay, backoff-base, backoff-max)"
        ),
        (
            ["--hedge", "on"],
            "'on' needs delay=DURATION (when each next copy goes, or percentile=Q or per-try-timeout=T), e.g. delay=10ms"
        ),
        (
            ["--hedge", "on:percentile=0"],
            "'percentile=0': percentile takes a fraction above 0 and at most 1 (1 - Finagle's maxExtraLoad"
        ),
        (
            ["--hedge", "on:delay=1ms:cancel=no:cancel-delay=2ms"],
            "'cancel-delay=2ms': cancel-delay needs cancel=yes"
        ),
        (
            ["--hedge", "on:delay=1ms:cancel-delay=soon"],
            "'cancel-delay=soon': cancel-delay takes a duration of at least 0"
        ),
        (["--hedge", "on:percentile=1.01"], "'percentile=1.01': percentile takes a fraction above 0 and at most 1"),
        (
            ["--hedge", "on:percentile=0.99:delay=1ms"],
            "'percentile=0.99': give one of delay, percentile (Finagle's) and per-try-timeout (Envoy's), not delay and "
                + "percentile"
        ),
        (
            ["--hedge", "on:per-try-timeout=0ms"],
            "'per-try-timeout=0ms': per-try-timeout takes a duration greater than 0"
        ),
        (
            ["--hedge", "on:delay=1ms:backoff-max=1s"],
            "'backoff-max=1s': backoff-max is the backoff before a per-try timeout's hedge, and needs per-try-timeout"
        ),
        (
            ["--hedge", "on:per-try-timeout=1s:backoff-base=100ms:backoff-max=50ms"],
            "'backoff-max=50ms': the backoff maximum must not be below its base"
        ),
        (
            ["--hedge", "on:per-try-timeout=1s:backoff-base=500us"],
            "'backoff-base=500us': the backoff base must be at least 1 ms (Envoy draws whole milliseconds)"
        ),
        (
            ["--hedge", "on:percentile=0.99:max-attempts=3"],
            "'max-attempts=3': with percentile a hedge sends one backup, as Finagle does"
        ),
        (
            ["--hedge", "on:delay=1ms:max-attempts=65"],
            "'max-attempts=65': max-attempts takes a whole number from 1 to 64"
        ),
        (
            ["--hedge", "on:delay=1ms:cancel=maybe"],
            "'cancel=maybe': cancel takes yes (the first success cancels the other copies) or no"
        ),
        (["--hedge", "on:delay=-5ms"], "'delay=-5ms': delay takes a duration of at least 0"),
        (["--hedge", "on:delay=1ms:delay=2ms"], "the parameter 'delay' is given twice"),
        (["--hedge", "of:delay=1ms"], "unknown kind 'of' (did you mean 'on'?)"),
    ])
    func aSpecParameterIsNamedWithItsRange(arguments: [String], detail: String) {
        let result = Invocation(["simulate", "--clients", "10"] + arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments)")
        #expect(
            result.stderr.hasPrefix("backoff: Invalid value '\(arguments[1])' for '\(arguments[0]) <"),
            "\(result.stderr)")
        #expect(result.stderr.contains(": \(detail)"), "\(result.stderr)")
    }

    /// A hedge needs a server whose copies take time (capacity); with layers a percentile hedge is
    /// the bottom layer's only, by its own keys (a layer's value smuggling other keys in is refused too). Each is a
    /// usage error that names the option and says why, and writes nothing.
    @Test(arguments: [
        (
            ["--server", "outage:2s", "--hedge", "on:delay=1ms"], "--hedge",
            "hedging needs a server where copies take time and run side by side on replicas (capacity)"
        ),
        (
            ["--server", "capacity", "--hedge", "on:percentile=0.9", "--layer", "max-attempts=2"], "--hedge",
            "with layers (--layer) the clients hedge into the top layer with on:delay=DURATION or "
                + "on:per-try-timeout=DURATION; a percentile (Finagle's) reads a replica set's latencies"
        ),
        (
            ["--server", "capacity", "--layer", "name=api,hedge-percentile=0.9", "--layer", "name=db"], "--layer",
            "layer 'api': a percentile hedge (hedge-percentile) sits at the bottom layer only; above it, hedge with "
                + "hedge-delay=DURATION or hedge-per-try-timeout=DURATION"
        ),
        (
            ["--server", "outage:1s", "--layer", "name=db,hedge-delay=1ms"], "--layer",
            "layer 'db': its hedge needs a server where copies take time and run side by side (capacity)"
        ),
    ])
    func aHedgeOrReplicasWhereTheyCannotRunAreRefused(arguments: [String], option: String, detail: String) {
        let result = Invocation(["simulate", "--clients", "10"] + arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments)")
        #expect(result.stderr.contains("for '\(option) <"), "\(result.stderr)")
        #expect(result.stderr.contains(detail), "\(result.stderr)")
    }
}
