/// A retry budget, breaker or throttle parameter outside its range.
public enum BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        }
    }
}
