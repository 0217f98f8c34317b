internal import CGSL

extension Summary {
    /// Samples of at least this many values find their order statistics by ``orderStatistics(of:ranks:)``.
    static let bucketedSelectionThreshold = 1 << 16

    /// The order statistics x_(r) of `buffer` for each rank r in `ranks` (0-based, ascending), by
    /// bucketed selection: one pass counts the values in buckets of their bit patterns' top 18 bits
    /// (the pattern of a double that is not negative grows with the value, so the buckets are in
    /// order: a 64th of a binade each), the counts' running sum names the bucket of each x_(r),
    /// a second pass moves those buckets' values to the front of the buffer (usually a few per
    /// cent of the sample), and `gsl_stats_select` finds each rank among them. About 14
    /// instructions a value (callgrind, 10^7 total waits, three quantiles), where quickselect over
    /// the whole sample took about 35, and no memory beyond 1 MiB of counts; the values are the same, since an order
    /// statistic is one number. A sample crowded into the ranks' buckets costs what quickselect
    /// does.
    ///
    /// `nil`, with `buffer` untouched, when a value has its sign bit set (a negative number or
    /// −0: their patterns do not sort with the others) or there are 2^32 values or more; the caller
    /// then selects as before. Otherwise `buffer` is reordered.
    static func orderStatistics(of buffer: UnsafeMutableBufferPointer<Double>, ranks: [Int]) -> [Double]? {
        let n = buffer.count
        guard n < 1 << 32, !ranks.isEmpty else { return nil }
        @inline(__always) func bucket(_ value: Double) -> Int { Int(truncatingIfNeeded: value.bitPattern >> 46) }
        let signedBuckets = 1 << 17
        var counts = [UInt32](repeating: 0, count: 2 * signedBuckets)
        counts.withUnsafeMutableBufferPointer { counts in
            for value in buffer { counts[bucket(value)] &+= 1 }
        }
        // A set sign bit puts a value in the upper half of the buckets.
        guard !counts[signedBuckets...].contains(where: { $0 != 0 }) else { return nil }
        // Each rank's bucket, and its rank among the values of all the ranks' buckets.
        var isTarget = [Bool](repeating: false, count: signedBuckets)
        var targetBuckets: [(bucket: Int, rank: Int)] = []
        var (current, below, previous) = (0, 0, 0)
        for rank in ranks {
            precondition(rank >= previous && rank < n, "ranks ascend within the sample")
            previous = rank
            while below + Int(counts[current]) <= rank {
                below += Int(counts[current])
                current += 1
            }
            isTarget[current] = true
            targetBuckets.append((current, rank - below))
        }
        // The ranks ascend, so their buckets do: the values below a target bucket's among the
        // targets' are those of the target buckets before it.
        var unionRanks: [Int] = []
        var (inLowerTargets, lastBucket) = (0, targetBuckets[0].bucket)
        for target in targetBuckets {
            if target.bucket != lastBucket {
                inLowerTargets += Int(counts[lastBucket])
                lastBucket = target.bucket
            }
            unionRanks.append(inLowerTargets + target.rank)
        }
        // Move the targets' values to the front.
        var total = 0
        isTarget.withUnsafeBufferPointer { isTarget in
            for index in buffer.indices where isTarget[bucket(buffer[index])] {
                buffer.swapAt(total, index)
                total += 1
            }
        }
        // Select each rank among them, ascending: everything before `settled` is at most the last.
        let base = buffer.baseAddress!
        var settled = 0
        return unionRanks.map { rank in
            _ = gsl_stats_select(base + settled, 1, total - settled, rank - settled)
            settled = rank
            return buffer[rank]
        }
    }
}
