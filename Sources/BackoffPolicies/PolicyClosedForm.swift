/// A policy's closed forms for a request whose every attempt fails: the moments of its total wait,
/// and the expected share of its waits that equal the cap (`nil` when it makes no retry).
public struct PolicyClosedForm: Hashable, Sendable {
    public let moments: TotalWaitMoments
    public let atCapFraction: Double?
}
