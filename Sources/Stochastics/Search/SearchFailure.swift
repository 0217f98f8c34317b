/// Why a ``ConstrainedSearch`` stopped: its evaluation failed, or GSL did.
public enum SearchFailure<Evaluation: Error>: Error {
    /// The caller's evaluation threw.
    case evaluation(Evaluation)
    /// The design's generator could not be made.
    case generator(StochasticsError)
    /// GSL's simplex failed.
    case simplex(StochasticsError)
}
