import BackoffPolicies
import EventSimulation
import Stochastics

extension ScenarioRun {
    /// The plain herd (see ``ScenarioPath/plainHerd``): each client sends one request to a server
    /// that answers at once and retries it on its policy's timer until it succeeds or gives up.
    ///
    /// This is the client-by-client path without the session state machine: the same server answer
    /// (``instantOutcome(at:using:)``), the same decision (`BackoffPolicy.decide`), the same draws in
    /// the same order and the same counts, so the report is the very same (tested against both other
    /// paths). It only leaves out what cannot happen here: later requests, permanent errors, the
    /// recovery trigger, Retry-After and shared limits.
    mutating func runPlainHerd(_ starts: [Int64]) {
        let policy = policy
        for (index, startTime) in starts.enumerated() {
            var random = Taus2(seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)))
            var backoff = BackoffState(policy: policy)
            let start = VirtualTime(nanoseconds: startTime)
            var time = start
            uniqueRequests += 1
            attempt: while true {
                let success = instantOutcome(at: time, using: &random).outcome == .success
                attempts += 1
                timeline.recordAttempt(at: time, isRetry: backoff.attempts > 1, answeredAtOnce: success ? .success : .failure)
                if success {
                    successes += 1
                    break attempt
                }
                let elapsed = time.nanoseconds - startTime
                switch policy.decide(after: &backoff, elapsed: elapsed, serverDelay: nil, handling: .ignore, using: &random) {
                case .retry(let wait):
                    time = time + wait
                case .giveUp:
                    giveUps += 1
                    requestsLost += 1
                    break attempt
                }
            }
            totalWaits[index] = Double(backoff.totalWait) / 1e9
            endedRequests += 1
            requestDurations += time.nanoseconds - startTime
            lastCompletion = max(lastCompletion, time.nanoseconds)
            attemptSquares += Double(backoff.attempts) * Double(backoff.attempts)
        }
    }
}
