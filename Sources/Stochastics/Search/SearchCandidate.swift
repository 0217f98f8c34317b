/// One point of a ``SearchSpace``: a value for every dimension, and the unit coordinates and
/// choices it was made from.
///
/// Two candidates are the same when their values are, whatever coordinates led to them (two
/// coordinates in one integer stratum, say): a ``ConstrainedSearch`` evaluates each once.
public struct SearchCandidate: Hashable, Sendable {
    /// Each dimension's value, by name.
    public let values: [String: SearchValue]
    /// The unit coordinates of the numeric dimensions, in the order of ``SearchSpace/numericNames``.
    public let unit: [Double]
    /// The label of each choice dimension.
    public let choices: [String: String]

    public static func == (left: SearchCandidate, right: SearchCandidate) -> Bool { left.values == right.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
