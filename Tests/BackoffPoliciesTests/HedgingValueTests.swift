import Testing

@testable import BackoffPolicies

/// A hedge's value: its parameters are checked where it is made.
@Suite struct HedgingValueTests {
    @Test func aHedgeNeedsACopyAndNoNegativeDelay() {
        #expect(throws: Hedging.Invalid(description: "a hedge sends 1 to 64 copies, got 0")) {
            try Hedging(delay: .seconds(1), copies: 0)
        }
        #expect(throws: Hedging.Invalid(description: "a hedge sends 1 to 64 copies, got 65")) {
            try Hedging(delay: .seconds(1), copies: 65)
        }
        #expect(throws: Hedging.Invalid.self) { try Hedging(delay: .seconds(-1), copies: 2) }
    }
}
