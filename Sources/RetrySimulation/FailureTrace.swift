import EventSimulation

/// A failure rate over time, read from an incident (`--server trace:FILE`): a step function. From each
/// step's start on, every attempt fails independently with the step's probability and, when the step
/// has one, the failure carries its Retry-After; the last step holds for ever.
///
/// A trace of probability 1 until T and 0 after is the model `outage:T` (the same draws: a step of
/// probability 0 or 1 draws no uniform).
public struct FailureTrace: Hashable, Sendable {
    /// What one step of the trace does to an attempt.
    public struct Level: Hashable, Sendable {
        public let failureProbability: Double
        public let retryAfter: Duration?

        public init(failureProbability: Double, retryAfter: Duration? = nil) {
            (self.failureProbability, self.retryAfter) = (failureProbability, retryAfter)
        }
    }

    public typealias Step = StepFunction<Level>.Step

    public let levels: StepFunction<Level>
    /// Where the trace came from (a file name), for the `server` column.
    public let name: String

    public var steps: [Step] { levels.steps }

    /// A trace of `steps`: at least one, the first at t = 0, non-decreasing starts, probabilities in
    /// [0, 1] and Retry-After delays not negative (the command line checks them row by row first).
    public init(steps: [Step], name: String) throws(SimulationError) {
        for step in steps {
            guard (0...1).contains(step.value.failureProbability) else {
                throw .invalidFailureProbability(step.value.failureProbability)
            }
            if let delay = step.value.retryAfter, delay < .zero { throw .negativeRetryAfter }
        }
        levels = try StepFunction(steps: steps)
        self.name = name
    }

    /// The level in force at `time`.
    @inline(__always)
    func level(at time: VirtualTime) -> Level { levels.value(at: time) }

    /// When the trace's failures end for good: the start of its final run of steps with probability
    /// 0; `nil` when the last step can still fail.
    public var recoveryTime: VirtualTime? { levels.settles { $0.failureProbability == 0 } }
}
