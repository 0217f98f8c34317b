import Stochastics

extension RetrialQueue {
    /// The stationary answers of a retrial queue, from its chain's stationary distribution.
    ///
    /// ```
    /// goodput          μ E[min(q, c)]                  successes a second
    /// lost             1 − goodput / λ                 the share of requests that end unserved
    /// attempts         1 + Σ_k θ_k E[o_k] / λ          attempts per request
    /// total wait       E[Σ o_k] / λ                    seconds each request spends waiting to retry (Little)
    /// response time    (E[q] + E[Σ o_k]) / λ           arrival to success or loss (Little)
    /// utilisation      E[min(q, c)] / c
    /// ```
    public struct Solution: Hashable, Sendable {
        public let goodput: Double
        public let lostFraction: Double
        public let attemptsPerRequest: Double
        /// E[Σ o_k], requests waiting to retry.
        public let meanRetrying: Double
        /// E[o_k] for each stage k = 1 … S.
        public let meanRetryingByStage: [Double]
        /// E[q], requests at the server (served or waiting).
        public let meanAtServer: Double
        public let meanTotalWait: Double
        public let meanResponseTime: Double
        public let utilisation: Double
        /// P(q = c + K): the share of time (and, by PASTA, of new requests) that finds every place taken.
        public let fullProbability: Double
        /// The stationary probability of the truncation's boundary: Σ o_k = N, or q = c + M for a
        /// queue longer than M. It bounds how much the truncation can move the answers.
        public var boundaryMass: Double { stageBoundaryMass + queueBoundaryMass }
        /// The probability of Σ o_k = N, and of q = c + M where the queue is truncated.
        public let stageBoundaryMass: Double
        public let queueBoundaryMass: Double
        /// N and M, and the states they took.
        public let truncation: Int
        public let queueTruncation: Int
        public let states: Int
        /// The balance equations' relative residual (see `MarkovChain`).
        public let residual: Double
        /// The Gauss–Seidel sweeps of the solve that gave this answer (started from a rough
        /// answer on the same truncation, when there was one; see ``RetrialQueue/roughTolerance``).
        public let sweeps: Int
        /// π itself, numbered as the state space numbers the states (a larger truncation starts from it).
        let probabilities: [Double]

        init(queue: RetrialQueue, space: StateSpace, stationary: StationaryDistribution) {
            let pi = stationary.probabilities
            var busy = 0.0
            var atServer = 0.0
            var byStage = [Double](repeating: 0, count: space.stages)
            var full = 0.0
            var stageBoundary = 0.0
            var queueBoundary = 0.0
            space.forEachStage { rank, stage in
                let onStageBoundary = space.stages > 0 && stage.reduce(0, +) == space.truncation
                var stageMass = 0.0
                for q in 0...space.places {
                    let p = pi[space.index(server: q, rank: rank)]
                    stageMass += p
                    busy += p * Double(Swift.min(q, queue.workers))
                    atServer += p * Double(q)
                    if q == space.places && !space.serverTruncated { full += p }
                    if onStageBoundary { stageBoundary += p }
                    if q == space.places && space.serverTruncated { queueBoundary += p }
                }
                for k in stage.indices { byStage[k] += stageMass * Double(stage[k]) }
            }
            let lambda = queue.arrivalRate
            let retrying = byStage.reduce(0, +)
            goodput = busy * queue.serviceRate
            lostFraction = Swift.max(0, 1 - goodput / lambda)
            attemptsPerRequest = 1 + zip(byStage, queue.retryRates).map { $0 * $1 }.reduce(0, +) / lambda
            (meanRetrying, meanRetryingByStage, meanAtServer) = (retrying, byStage, atServer)
            meanTotalWait = retrying / lambda
            meanResponseTime = (atServer + retrying) / lambda
            utilisation = busy / Double(queue.workers)
            (fullProbability, stageBoundaryMass, queueBoundaryMass) = (full, stageBoundary, queueBoundary)
            (truncation, queueTruncation) = (space.truncation, space.queueTruncation)
            (states, residual, sweeps) = (space.count, stationary.residual, stationary.iterations)
            probabilities = pi
        }
    }
}
