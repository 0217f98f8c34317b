import BackoffPolicies
import EventSimulation

/// The expected load of a burst of clients against an outage, by numerical convolution of the wait
/// distributions (no sampling).
///
/// Every client makes attempt 1 at t = 0; attempt j starts at S_(j-1) = w_1 + ... + w_(j-1) and
/// happens iff attempt j - 1 failed, that is iff S_(j-2) < T. With independent waits (no jitter,
/// full or equal jitter), the law of S_k is the convolution of the waits' laws, and
/// ```
/// E[attempts]           = Σ_{j=1}^{n} P(S_(j-2) < T)                     (S_(-1) = -∞)
/// P(success)            = P(S_(n-1) >= T)
/// E[total wait]         = Σ_{k=1}^{n-1} E[w_k] P(S_(k-1) < T)
/// E[attempts in B] / N  = Σ_{j=1}^{n} P(S_(j-1) ∈ B, S_(j-2) < T)
///                       = Σ_j ((law of S_(j-2) restricted to [0, T)) * law of w_(j-1))(B)
/// ```
/// The laws live on a histogram of cells of width δ = w/32 (w the bucket width; coarser if the
/// horizon would need more than 4 million cells), each wait's bounds rounded to whole cells (exact
/// for the usual millisecond schedules). S_1 = w_1 is placed exactly (and S_2 after an immediate first
/// retry, w_1 = 0); every later step treats a
/// cell's mass as spread evenly across the cell, so adding U(pδ, qδ) spreads it as a trapezoid:
/// half a share 1/L in cells p and q, a full share in between (L = q - p), and a point wait shifts
/// it by p cells. The error in any bucket is second order in δ/w, with no bias at bucket edges.
/// Proportional and additive jitter are uniform windows too; under cap mode `clamp` a wait is a
/// mixture of a uniform up to c and an atom at c, convolved as both. The decorrelated modes and
/// polly-v2 (whose waits depend on each other) and `maxElapsed` have no such form here.
public struct OutageLoad: Sendable {
    /// E[attempts] per client.
    public let expectedAttempts: Double
    /// E[total wait] per client, in seconds.
    public let expectedTotalWait: Double
    /// The probability that a client succeeds (its last allowed attempt is at or after T).
    public let successProbability: Double
    /// Expected attempts per client in each bucket of width `bucketWidth`, bucket 0 first.
    public let attemptsPerBucket: [Double]
    /// Expected retries (attempts after the first) per client in each bucket.
    public let retriesPerBucket: [Double]
    /// The bucket width, in whole nanoseconds.
    public let bucketWidth: Nanoseconds

    /// The most cells the convolution spans (four arrays of them are held).
    public static let cellLimit = 4_000_000.0

    /// `nil` for the decorrelated modes, polly-v2, a policy with `maxElapsed`, or a bucket so fine
    /// that the waits' span holds more than ``cellLimit`` buckets.
    public init?(policy: BackoffPolicy, outageEnd: VirtualTime, bucketWidth width: Duration) {
        let bucketWidth = width.wholeNanoseconds
        guard policy.maxElapsed == nil, bucketWidth > 0 else { return nil }
        let n = policy.maxAttempts
        var waits: [(low: Double, high: Double, atCap: Double)] = []
        for k in 1..<max(1, n) {
            if policy.schedule == .immediate {
                waits.append((0, 0, 0))
                continue
            }
            guard let law = policy.roundedWaitLawNanoseconds(beforeRetry: k) else { return nil }
            waits.append(law)
        }
        let horizon = waits.reduce(0) { $0 + $1.high } + Double(bucketWidth)
        // Cells of 1/32 of a bucket, coarsened while they are too many, but never beyond the bucket,
        // which must hold a whole number of cells.
        var cell = Double(bucketWidth) / 32
        while horizon / cell > Self.cellLimit, cell < Double(bucketWidth) { cell *= 2 }
        guard horizon / cell <= Self.cellLimit else { return nil }
        let cells = Int((horizon / cell).rounded(.up)) + 2
        let end = Double(outageEnd.nanoseconds)

        var law = [Double](repeating: 0, count: cells)  // law of S_(j-1)
        law[0] = 1
        var attempts = [Double](repeating: 0, count: cells)
        var retries = [Double](repeating: 0, count: cells)
        attempts[0] = 1
        var expectedAttempts = 1.0
        var expectedWait = 0.0
        var stillFailing = end > 0 ? 1.0 : 0.0  // P(S_0 < T), S_0 = 0 exactly
        // S_k stays exactly 0 while every wait so far was 0 (an immediate first retry): the next wait
        // is then placed exactly too, as the first is.
        var atZero = true
        for wait in waits {
            // Attempt k + 2 happens iff S_k < T: restrict, then add the next wait.
            let fromPoint = atZero
            atZero = atZero && wait.high == 0
            let restricted = fromPoint ? law.map { $0 * stillFailing } : Self.restrict(law, below: end, cell: cell)
            expectedAttempts += stillFailing
            expectedWait += ((1 - wait.atCap) * (wait.low + wait.high) / 2 + wait.atCap * wait.high) * stillFailing
            law = Self.convolve(
                restricted, cellsFrom: Int((wait.low / cell).rounded()), to: Int((wait.high / cell).rounded()),
                fromPoint: fromPoint)
            if wait.atCap > 0 {
                // Clamped: the uniform part U(low, c) with its mass, and an atom at c (= high).
                let atom = Self.convolve(
                    restricted, cellsFrom: Int((wait.high / cell).rounded()), to: Int((wait.high / cell).rounded()),
                    fromPoint: fromPoint)
                for i in law.indices { law[i] = (1 - wait.atCap) * law[i] + wait.atCap * atom[i] }
            }
            for i in 0..<cells {
                attempts[i] += law[i]
                retries[i] += law[i]
            }
            stillFailing = Self.restrict(law, below: end, cell: cell).reduce(0, +)
        }
        self.expectedAttempts = expectedAttempts
        expectedTotalWait = expectedWait / 1e9
        successProbability = 1 - stillFailing
        self.bucketWidth = bucketWidth
        let perBucket = Int((Double(bucketWidth) / cell).rounded())
        func bucketed(_ values: [Double]) -> [Double] {
            stride(from: 0, to: values.count, by: perBucket).map { start in
                values[start..<min(start + perBucket, values.count)].reduce(0, +)
            }
        }
        attemptsPerBucket = bucketed(attempts)
        retriesPerBucket = bucketed(retries)
    }

    /// The largest expected attempts (per client) in one bucket, and that bucket's start.
    public var peakAttempts: (value: Double, start: VirtualTime) { Self.peak(attemptsPerBucket, bucketWidth) }
    /// The largest expected retries (per client) in one bucket, and that bucket's start.
    public var peakRetries: (value: Double, start: VirtualTime) { Self.peak(retriesPerBucket, bucketWidth) }

    private static func peak(_ values: [Double], _ width: Int64) -> (value: Double, start: VirtualTime) {
        var best = (value: 0.0, index: 0)
        for (index, value) in values.enumerated() where value > best.value + 1e-12 { best = (value, index) }
        return (best.value, VirtualTime(nanoseconds: Int64(best.index) * width))
    }

    /// The law restricted to [0, T), a cell's mass spread evenly across the cell.
    private static func restrict(_ law: [Double], below end: Double, cell: Double) -> [Double] {
        var result = law
        for i in result.indices {
            let low = Double(i) * cell
            if low + cell <= end { continue }
            result[i] *= low >= end ? 0 : (end - low) / cell
        }
        return result
    }

    /// The law of S + W for W ~ U(pδ, qδ) (a point when p = q). With `fromPoint`, S is exactly 0
    /// (all mass at the left edge of cell 0), so the sum is the uniform itself: share 1/L in cells
    /// p ..< q. Otherwise each cell's mass is spread across its cell and the sum spreads it as a
    /// trapezoid: 1/(2L) in cells p and q, 1/L in the cells between.
    /// - Complexity: O(cells), with prefix sums for the constant middle of the kernel.
    static func convolve(_ law: [Double], cellsFrom p: Int, to q: Int, fromPoint: Bool) -> [Double] {
        let count = law.count
        let length = q - p
        var kernel: [Double]  // weights for offsets p ... p + kernel.count - 1
        if length == 0 {
            kernel = [1]
        } else if fromPoint {
            kernel = [Double](repeating: 1 / Double(length), count: length)
        } else {
            kernel = [Double](repeating: 1 / Double(length), count: length + 1)
            kernel[0] /= 2
            kernel[length] /= 2
        }
        var prefix = [Double](repeating: 0, count: count + 1)
        for i in 0..<count { prefix[i + 1] = prefix[i] + law[i] }
        func sum(_ from: Int, _ to: Int) -> Double {  // Σ law[from...to], clamped
            let a = max(0, from)
            let b = min(count - 1, to)
            return a > b ? 0 : prefix[b + 1] - prefix[a]
        }
        let last = p + kernel.count - 1
        var result = [Double](repeating: 0, count: count)
        for j in 0..<count {
            if kernel.count <= 2 {
                var total = 0.0
                for (offset, weight) in kernel.enumerated() where j - p - offset >= 0 {
                    total += weight * law[j - p - offset]
                }
                result[j] = total
            } else {
                // Ends (which may differ), constant middle by prefix sums: Σ_{d=p+1}^{last-1} law[j-d].
                var total = kernel[1] * sum(j - last + 1, j - p - 1)
                if j - p >= 0 { total += kernel[0] * law[j - p] }
                if j - last >= 0 { total += kernel[kernel.count - 1] * law[j - last] }
                result[j] = total
            }
        }
        return result
    }
}
