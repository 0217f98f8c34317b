import EventSimulation

/// A failure rate over time, read from an incident (`--server trace:FILE`): a step function. From each
/// step's start on, every attempt fails independently with the step's probability and, when the step
/// has one, the failure carries its Retry-After; the last step holds for ever.
///
/// A trace of probability 1 until T and 0 after is the model `outage:T` (the same draws: a step of
/// probability 0 or 1 draws no uniform).
public struct FailureTrace: Hashable, Sendable {
    public struct Step: Hashable, Sendable {
        public let start: VirtualTime
        public let failureProbability: Double
        public let retryAfter: Duration?

        public init(start: VirtualTime, failureProbability: Double, retryAfter: Duration? = nil) {
            (self.start, self.failureProbability, self.retryAfter) = (start, failureProbability, retryAfter)
        }
    }

    public let steps: [Step]
    /// Where the trace came from (a file name), for the `server` column.
    public let name: String

    /// A trace of `steps`: at least one, the first at t = 0, non-decreasing starts, probabilities in
    /// [0, 1] and Retry-After delays not negative (the command line checks them row by row first).
    public init(steps: [Step], name: String) throws(SimulationError) {
        guard let first = steps.first, first.start == .zero else { throw .invalidTrace("a trace must start at t = 0") }
        for (index, step) in steps.enumerated() {
            guard (0...1).contains(step.failureProbability) else { throw .invalidFailureProbability(step.failureProbability) }
            if let delay = step.retryAfter, delay < .zero { throw .negativeRetryAfter }
            if index > 0, step.start < steps[index - 1].start { throw .invalidTrace("trace times must not decrease") }
        }
        self.steps = steps
        self.name = name
    }

    /// The step in force at `time`: the last whose start is at or before it.
    @inline(__always)
    func step(at time: VirtualTime) -> Step {
        var (low, high) = (0, steps.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if steps[mid].start <= time { low = mid } else { high = mid - 1 }
        }
        return steps[low]
    }

    /// When the trace's failures end for good: the start of its final run of steps with probability
    /// 0; `nil` when the last step can still fail.
    public var recoveryTime: VirtualTime? {
        guard steps.last?.failureProbability == 0 else { return nil }
        var index = steps.count - 1
        while index > 0 && steps[index - 1].failureProbability == 0 { index -= 1 }
        return steps[index].start
    }
}
