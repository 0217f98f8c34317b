/// The value a ``SearchCandidate`` gives one dimension of its ``SearchSpace``.
public enum SearchValue: Hashable, Sendable {
    /// A continuous dimension's value (rounded when the dimension takes whole numbers).
    case real(Double)
    /// An integer dimension's value.
    case integer(Int)
    /// A choice dimension's label.
    case choice(String)
}
