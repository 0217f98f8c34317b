import Testing

@testable import RetrySimulation

/// The counters' sums of squares hold sessions whose attempts square past 2^64.
struct ScenarioCountersTests {
    @Test func attemptSquaresCarryPastSixtyFourBits() {
        // 10 requests of 10^9 attempts each: 10^10 attempts, whose square is 10^20 > 2^64.
        var counters = ScenarioCounters(sessions: 2, requestsPerClient: 1, exactQuantileLimit: 0)
        counters.sessionEnded(attempts: 10_000_000_000)
        counters.sessionEnded(attempts: 3)
        let exact = UInt128(10_000_000_000) * 10_000_000_000 + 9
        let squares = counters.attemptSquares
        #expect(UInt128(squares.carries) << 64 + UInt128(squares.low) == exact)

        // Split over two runs and merged, the sum is the same to the bit.
        var first = ScenarioCounters(sessions: 1, requestsPerClient: 1, exactQuantileLimit: 0)
        var second = first
        first.sessionEnded(attempts: 10_000_000_000)
        second.sessionEnded(attempts: 3)
        first.merge(second)
        #expect(first.attemptSquares.low == squares.low && first.attemptSquares.carries == squares.carries)
    }
}
