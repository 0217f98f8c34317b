import RetrySimulation

extension HelpRenderer {
    /// `backoff help servers`: each server model of `simulate`, what it does and its options.
    /// Each component's paragraph follows the built-in models', from its own declaration.
    static func servers() -> String {
        let components = ServerComponents.registered.map { component in
            let name = "  " + component.usage.padding(toLength: 16, withPad: " ", startingAt: 0)
            let indent = String(repeating: " ", count: name.count)
            return component.help.enumerated().map { ($0 == 0 ? name : indent) + $1 }.joined(separator: "\n")
        }
        return """
            Server models of 'backoff simulate' (--server):

              always-fail     Every attempt fails at once.
              bernoulli:P     Each attempt fails at once, independently, with probability P (0 <= P <= 1).
                              --server-retry-after DURATION: failures carry this Retry-After.
              outage:T        Attempts before T fail at once; attempts at or after T succeed.
                              --server-retry-after DURATION|recovery: failures carry a Retry-After, fixed or
                              the time left until T. Recovers at T (for --retry-trigger recovery, drain_time_s).
              contention      One item under optimistic concurrency (AWS Architecture Blog, 2015). An attempt
                              reads the item's version and writes with it, each a round trip of two network
                              hops of |N(--hop, --hop-sd)| (10ms, 2ms); the write succeeds only if the version
                              is unchanged, and increments it. attempts_total counts writes (the calls).
              capacity        --workers (4) serve a FIFO queue of --queue (100) places; service times
                              --service fixed:D, exp:MEAN or lognormal:MEAN:SD (exp:20ms), drawn with GSL. An
                              attempt that finds the queue full is rejected at once (--reject-retry-after
                              DURATION adds a Retry-After). --timeout DURATION: the client stops waiting (the
                              server still serves the attempt: wasted work). --degrade-from A --degrade-until B
                              --degrade-to F: services that start in [A, B) take their time divided by F, the
                              trigger of an overload; the server recovers at B. --capacity-trace FILE instead
                              reads capacity over time from an incident, a CSV of time_s,capacity_factor: a
                              service takes its time divided by the factor in force when it starts (the last
                              row holds); the server recovers when the factor is back at 1 or more for good.
                              --replicas K: K such servers behind a uniform random balancer (--balancer); some
                              may misbehave (--host-fault 1:fail-fast), and retries may avoid the hosts they
                              tried (--retry-host-predicate previous-hosts). --hedge on:delay=D sends copies of
                              each attempt D apart to distinct replicas; the first success wins.
              trace:FILE      Replays an incident: FILE is a CSV of time_s,failure_probability and optionally
                              retry_after_s, a step function from t = 0 (the last row holds). From each time
                              on, every attempt fails independently with that probability, carrying that
                              Retry-After. Recovers when the probability is 0 for good. A trace of 1 until T
                              and 0 after is outage:T, draw for draw.
            \(components.joined(separator: "\n"))

            Options that do not apply to the chosen model are ignored, with a warning on stderr.

            """
    }
}
