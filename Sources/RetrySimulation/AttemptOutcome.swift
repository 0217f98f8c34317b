/// What the server answered to one attempt.
public enum AttemptOutcome: Hashable, Sendable {
    case success
    case failure
}
