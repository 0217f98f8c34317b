/// The retries whose replica a retry host predicate picked (``RetryHostPredicate``): how many
/// landed on a host their request had tried already, beside the closed form's expectation.
///
/// Retry r, whose request had tried a_r distinct hosts of n, lands on one of them with
/// probability p_r = (a_r/n)^(k+1) under a random balancer (k more picks). The count that did is
/// a sum of independent Bernoulli(p_r) given the a_r, so its expectation is Σ p_r and its
/// variance Σ p_r (1 − p_r): the closed form, and its standard error, for the path the run took.
public struct TriedHostTally: Hashable, Sendable {
    /// Retries picked under the predicate.
    public private(set) var retries = 0
    /// Those that landed on a host their request had tried.
    public private(set) var toTriedHosts = 0
    /// Σ p_r and Σ p_r (1 − p_r).
    private var expected = 0.0, variance = 0.0
    /// By a, the retries whose request had tried a distinct hosts (index a), and those of them that
    /// landed on a tried host.
    public private(set) var retriesByTried: [Int] = [], toTriedByTried: [Int] = []

    /// A retry whose request had tried `tried` distinct hosts landed on one of them or not, where
    /// the closed form gives it `probability`.
    mutating func record(tried: Int, landedOnTried: Bool, probability: Double) {
        retries += 1
        expected += probability
        variance += probability * (1 - probability)
        if retriesByTried.count <= tried {
            retriesByTried += repeatElement(0, count: tried + 1 - retriesByTried.count)
            toTriedByTried += repeatElement(0, count: tried + 1 - toTriedByTried.count)
        }
        retriesByTried[tried] += 1
        if landedOnTried {
            toTriedHosts += 1
            toTriedByTried[tried] += 1
        }
    }

    /// The share of retries that landed on a tried host (NaN without retries).
    public var share: Double { retries > 0 ? Double(toTriedHosts) / Double(retries) : .nan }

    /// The closed form's expected share, Σ p_r / N, under a random balancer.
    public var expectedShare: Double { retries > 0 ? expected / Double(retries) : .nan }

    /// The share's standard error under the closed form, √(Σ p_r (1 − p_r)) / N.
    public var expectedStandardError: Double { retries > 0 ? variance.squareRoot() / Double(retries) : .nan }

    /// The share's own binomial standard error, √(p̂ (1 − p̂) / N), where the closed form does not
    /// hold (a balancer that is not random).
    public var observedStandardError: Double {
        retries > 0 ? (share * (1 - share) / Double(retries)).squareRoot() : .nan
    }
}
