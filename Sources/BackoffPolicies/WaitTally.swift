/// How many waits a batch of draws took, and how many of them equal the cap.
public struct WaitTally: Hashable, Sendable {
    public var waits = 0
    public var atCap = 0

    @inlinable public init(waits: Int = 0, atCap: Int = 0) {
        self.waits = waits
        self.atCap = atCap
    }

    /// The share of waits at the cap, `nil` when no wait was drawn.
    public var atCapFraction: Double? { waits > 0 ? Double(atCap) / Double(waits) : nil }

    public static func + (left: WaitTally, right: WaitTally) -> WaitTally {
        WaitTally(waits: left.waits + right.waits, atCap: left.atCap + right.atCap)
    }
}
