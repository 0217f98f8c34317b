/// A failure reported by GSL, or a request GSL cannot serve.
public enum StochasticsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A GSL call returned a non-zero status; `reason` is GSL's own text for it (`gsl_strerror`).
    case gsl(function: String, status: Int32, reason: String)
    /// GSL could not allocate the named object.
    case allocationFailed(String)

    public var description: String {
        switch self {
        case .gsl(let function, let status, let reason): "\(function) failed with GSL status \(status): \(reason)"
        case .allocationFailed(let what): "GSL could not allocate \(what)"
        }
    }
}
