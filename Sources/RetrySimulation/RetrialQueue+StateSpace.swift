import Stochastics

extension RetrialQueue {
    /// The truncated states (q, o_1, …, o_S) of a retrial queue and their numbering: q in
    /// 0 … places (c + min(K, M)), and the stage counts o with Σ o_k ≤ N in lexicographic order, so that state
    /// (q, o) is number rank(o) (places + 1) + q.
    ///
    /// The stage vectors of length L with sum at most M number C(M + L, L); those before o in
    /// lexicographic order number Σ_k [C(M_k + L_k + 1, L_k + 1) − C(M_k − o_k + L_k + 1, L_k + 1)],
    /// with M_k = N − Σ_{j<k} o_j and L_k = S − k (the hockey-stick identity), so a rank costs O(S).
    struct StateSpace {
        /// N, the most requests the retry stages hold together.
        let truncation: Int
        /// M, the most waiting places kept of a longer (or unbounded) queue.
        let queueTruncation: Int
        let stages: Int
        /// c + K, or c + M for a queue longer than M (unbounded included).
        let places: Int
        /// Whether `places` is the truncation's rather than the server's.
        let serverTruncated: Bool
        /// `vectors[L][M]` = C(M + L, L): the stage vectors of length L with sum at most M.
        private let vectors: [[Int]]
        /// The number of states.
        let count: Int

        /// The space at N = `truncation` and M = `queueTruncation`; `nil` past 2^31 − 1 states.
        init?(queue: RetrialQueue, truncation: Int, queueTruncation: Int) {
            precondition(truncation >= 1 && queueTruncation >= 1)
            (self.truncation, self.queueTruncation) = (truncation, queueTruncation)
            stages = queue.retryRates.count
            // A queue longer than M is truncated at M like an unbounded one.
            let queueLimit = queue.queueLimit.map { Swift.min($0, queueTruncation) } ?? queueTruncation
            serverTruncated = queueLimit < queue.queueLimit ?? Int.max
            places = queue.workers + queueLimit
            // C(M + L, L) for L up to S + 1 and M up to N, by Pascal's rule, saturating.
            let limit = Int(Int32.max)
            var table = [[Int]](repeating: [Int](repeating: 1, count: truncation + 1), count: stages + 2)
            for length in stride(from: 1, through: stages + 1, by: 1) {
                for sum in 1...truncation {
                    table[length][sum] = Swift.min(limit, table[length - 1][sum] + table[length][sum - 1])
                }
            }
            vectors = table
            let (total, overflow) = table[stages][truncation].multipliedReportingOverflow(by: places + 1)
            guard !overflow, total <= limit else { return nil }
            count = total
        }

        /// The number of (q, o) with the given stage vector's rank.
        func index(server q: Int, rank: Int) -> Int { rank * (places + 1) + q }

        /// The lexicographic rank of the stage vector `stage`.
        func rank(_ stage: [Int]) -> Int {
            var rank = 0
            var remaining = truncation
            for (k, count) in stage.enumerated() where count > 0 {
                let length = stages - 1 - k
                rank += vectors[length + 1][remaining] - vectors[length + 1][remaining - count]
                remaining -= count
            }
            return rank
        }

        /// `probabilities` of the states of `smaller` (a truncation at most this one's), placed on
        /// the same states of this space, 0 on the others.
        func spread(_ probabilities: [Double], from smaller: StateSpace) -> [Double] {
            var spread = [Double](repeating: 0, count: count)
            smaller.forEachStage { rank, stage in
                let target = self.rank(stage)
                for q in 0...Swift.min(smaller.places, places) {
                    spread[index(server: q, rank: target)] += probabilities[smaller.index(server: q, rank: rank)]
                }
            }
            return spread
        }

        /// Calls `body(rank, stage)` for every stage vector, in rank order.
        func forEachStage(_ body: (Int, [Int]) -> Void) {
            var stage = [Int](repeating: 0, count: stages)
            var sum = 0
            var rank = 0
            while true {
                body(rank, stage)
                rank += 1
                // The lexicographic successor under Σ ≤ N: raise the last stage that can be raised,
                // emptying the ones after it.
                var position = stages - 1
                while position >= 0 {
                    if sum < truncation {
                        stage[position] += 1
                        sum += 1
                        break
                    }
                    sum -= stage[position]
                    stage[position] = 0
                    position -= 1
                }
                if position < 0 { return }
            }
        }

        /// The chain: arrivals, retries (joining, or moving on a stage or out when rejected) and services.
        func chain(_ queue: RetrialQueue) -> MarkovChain {
            // A block's level is its requests waiting to retry: a move changes it by one at most.
            var levels = [Int]()
            levels.reserveCapacity(count / (places + 1))
            forEachStage { _, stage in levels.append(stage.reduce(0, +)) }
            var chain = MarkovChain(stateCount: count, blockSize: places + 1, levels: levels)
            chain.reserveTransitions(count * (2 + 2 * stages))
            let lambda = queue.arrivalRate
            forEachStage { rank, stage in
                let sum = stage.reduce(0, +)
                var moved = stage
                for q in 0...places {
                    let state = index(server: q, rank: rank)
                    let full = q == places
                    if !full {
                        chain.addTransition(from: state, to: state + 1, rate: lambda)
                    } else if stages > 0, sum < truncation {
                        moved[0] += 1
                        chain.addTransition(from: state, to: index(server: q, rank: self.rank(moved)), rate: lambda)
                        moved[0] -= 1
                    }
                    if q > 0 {
                        let service = Double(Swift.min(q, queue.workers)) * queue.serviceRate
                        chain.addTransition(from: state, to: state - 1, rate: service)
                    }
                    for k in 0..<stages where stage[k] > 0 {
                        let rate = Double(stage[k]) * queue.retryRates[k]
                        moved[k] -= 1
                        if !full {
                            chain.addTransition(
                                from: state, to: index(server: q + 1, rank: self.rank(moved)), rate: rate)
                        } else if k + 1 < stages {
                            moved[k + 1] += 1
                            chain.addTransition(from: state, to: index(server: q, rank: self.rank(moved)), rate: rate)
                            moved[k + 1] -= 1
                        } else if !queue.retriesUnlimited {
                            chain.addTransition(from: state, to: index(server: q, rank: self.rank(moved)), rate: rate)
                        }
                        moved[k] += 1
                    }
                }
            }
            return chain
        }
    }
}
