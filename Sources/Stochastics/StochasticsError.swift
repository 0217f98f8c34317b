/// A failure reported by GSL, or a request GSL cannot serve.
public enum StochasticsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A GSL call returned a non-zero status; `reason` is GSL's own text for it (`gsl_strerror`).
    case gsl(function: String, status: Int32, reason: String)
    /// GSL could not allocate the named object.
    case allocationFailed(String)
    /// A Markov chain's state has no transition out, so the chain is not irreducible.
    case notIrreducible(trappedState: Int)
    /// An iterative solver stopped after `sweeps` sweeps with its residual still above the tolerance.
    case notConverged(sweeps: Int, residual: Double)

    public var description: String {
        switch self {
        case .gsl(let function, let status, let reason): "\(function) failed with GSL status \(status): \(reason)"
        case .allocationFailed(let what): "GSL could not allocate \(what)"
        case .notIrreducible(let state): "the Markov chain is not irreducible: state \(state) has no transition out"
        case .notConverged(let sweeps, let residual):
            "the stationary distribution did not converge: relative residual \(residual) after \(sweeps) sweeps"
        }
    }
}
