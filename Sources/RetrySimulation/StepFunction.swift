import EventSimulation

/// A value over virtual time that changes in steps, as an incident trace records it: each step
/// holds from its start until the next one starts, and the last holds for ever.
public struct StepFunction<Value: Hashable & Sendable>: Hashable, Sendable {
    public struct Step: Hashable, Sendable {
        public let start: VirtualTime
        public let value: Value

        public init(start: VirtualTime, value: Value) {
            (self.start, self.value) = (start, value)
        }
    }

    public let steps: [Step]

    /// Steps that start at t = 0 and whose starts never decrease.
    public init(steps: [Step]) throws(SimulationError) {
        guard let first = steps.first, first.start == .zero else { throw .invalidTrace("a trace must start at t = 0") }
        for index in steps.indices.dropFirst() where steps[index].start < steps[index - 1].start {
            throw .invalidTrace("trace times must not decrease")
        }
        self.steps = steps
    }

    /// The value in force at `time`: the last step whose start is at or before it.
    @inline(__always)
    public func value(at time: VirtualTime) -> Value {
        var (low, high) = (0, steps.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if steps[mid].start <= time { low = mid } else { high = mid - 1 }
        }
        return steps[low].value
    }

    /// The start of the final run of steps whose values satisfy `isSettled` (the end of the
    /// incident; t = 0 when every step does); `nil` when the last value is unsettled.
    public func settles(when isSettled: (Value) -> Bool) -> VirtualTime? {
        guard let last = steps.last, isSettled(last.value) else { return nil }
        var index = steps.count - 1
        while index > 0 && isSettled(steps[index - 1].value) { index -= 1 }
        return steps[index].start
    }
}
