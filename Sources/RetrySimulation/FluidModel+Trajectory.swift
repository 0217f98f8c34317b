import EventSimulation
import Stochastics

/// The fluid's course from an empty server, bucket by bucket, as a run goes.
extension FluidModel {
    /// What the fluid predicts a run does: successes and attempts per bucket (all replicas), and
    /// the totals once every request has ended.
    public struct Trajectory: Sendable {
        /// The buckets' width, in nanoseconds (the run's `--bucket`).
        public let bucketWidth: Int64
        /// Successes in each bucket, from 0 until the detail ends.
        public let successes: [Double]
        /// Attempts sent in each bucket.
        public let attempts: [Double]
        /// New requests, successes, give-ups and attempts of the whole run.
        public let requests: Double
        public let totalSuccesses: Double
        public let totalGiveUps: Double
        public let totalAttempts: Double
        /// Whether every request had ended when the integration stopped (at its time limit).
        public let drained: Bool

        /// The share of requests that succeed (held within [0, 1], which the integration's relative
        /// error of about 1e-8 may cross by as much).
        public var successFraction: Double { requests > 0 ? min(1, max(0, totalSuccesses / requests)) : 0 }

        /// Attempts per request (held at 1 or more, as ``successFraction`` is held).
        public var attemptsPerRequest: Double { requests > 0 ? max(1, totalAttempts / requests) : 0 }
    }

    /// The longest a trajectory is followed, in seconds of model time.
    public static let horizonLimit = 1e6

    /// The relative tolerance of every integration step.
    static let relativeTolerance = 1e-6

    /// The longest span followed at once after the detail (a second, or a tenth of the time so
    /// far, up to this), and the most steps its integration may take: a model within
    /// ``stiffnessLimit`` needs fewer.
    static let longestStep = 30.0
    static let maximumSteps = 1_000_000

    /// Follows the fluid from an empty server at 0: bucket by bucket until `detailUntil`
    /// nanoseconds, then in steps of a second or a tenth of the time so far until every request has ended (less than a
    /// millionth of a request in flight), or `tippingHorizon(backlog:)` of a full queue after the
    /// arrivals end, or ``horizonLimit``: requests still in flight then (capacity that never comes
    /// back) count neither as successes nor as give-ups, and `drained` is false.
    /// - Throws: a GSL failure of the integration.
    public func trajectory(bucketWidth: Int64, detailUntil: Int64) throws(StochasticsError) -> Trajectory {
        precondition(bucketWidth > 0, "buckets have a width")
        let layout = layout
        var y = [Double](repeating: 0, count: layout.dimension)
        let integrator = try self.integrator()
        let width = Double(bucketWidth) / 1e9
        let buckets = Int((detailUntil + bucketWidth - 1) / bucketWidth)
        let scale = Double(replicas)
        var successes: [Double] = []
        var attempts: [Double] = []
        successes.reserveCapacity(buckets)
        attempts.reserveCapacity(buckets)
        var t = 0.0
        var (sent, succeeded) = (0.0, 0.0)
        for bucket in 0..<buckets {
            let end = Double(bucket + 1) * width
            try advance(&y, from: t, to: end, integrator)
            t = end
            successes.append(scale * (y[layout.successes] - succeeded))
            attempts.append(scale * (y[layout.sent] - sent))
            (sent, succeeded) = (y[layout.sent], y[layout.successes])
        }
        let arrivalsOver = arrivalsEnd ?? Self.horizonLimit
        // Requests end within five lifetimes of the last arrival (and the drain of a full
        // queue) unless capacity stays away; the steps lengthen as the run goes on.
        let limit = min(Self.horizonLimit, arrivalsOver + tippingHorizon(backlog: Double(queueLimit)))
        while t < limit && (t < arrivalsOver || inFlight(y) >= 1e-6) {
            let end = min(limit, t + min(Self.longestStep, max(1, t / 10)))
            try advance(&y, from: t, to: end, integrator)
            t = end
        }
        return Trajectory(
            bucketWidth: bucketWidth, successes: successes, attempts: attempts,
            requests: arrivalRate * min(arrivalsOver, t), totalSuccesses: scale * y[layout.successes],
            totalGiveUps: scale * y[layout.giveUps], totalAttempts: scale * y[layout.sent],
            drained: inFlight(y) < 1e-6)
    }

    /// An integrator of one replica's equations, reading the arrivals and capacity in force from
    /// the box `advance` sets.
    func integrator() throws(StochasticsError) -> FluidIntegrator {
        let box = FluidIntegrator.Inputs()
        let model = self
        let scale = Double(workers + queueLimit)
        let integrator = try ODEIntegrator(
            dimension: layout.dimension, absoluteTolerance: 1e-8 * scale,
            relativeTolerance: Self.relativeTolerance, initialStep: 1e-6, maximumSteps: Self.maximumSteps
        ) { t, y, dy in
            model.derivative(at: t, y, into: dy, factor: box.factor, arrivals: box.arrivals)
        }
        return FluidIntegrator(integrator: integrator, inputs: box)
    }

    /// Advances `y` from `start` to `end` seconds, stopping at each jump of the arrivals or the
    /// capacity in between, so that no step spans one.
    func advance(
        _ y: inout [Double], from start: Double, to end: Double, _ integrator: FluidIntegrator
    ) throws(StochasticsError) {
        var t = start
        while t < end {
            let next = min(end, breakpoints.first { $0 > t } ?? end)
            let (factor, arrivals) = (capacityFactor(at: t), arrivalRate(at: t))
            if factor != integrator.inputs.factor || arrivals != integrator.inputs.arrivals {
                (integrator.inputs.factor, integrator.inputs.arrivals) = (factor, arrivals)
                integrator.integrator.restart()
            }
            try integrator.integrator.advance(&y, from: t, to: next)
            t = next
        }
    }
}

/// A fluid's integrator and the inputs in force that its right-hand side reads.
final class FluidIntegrator {
    final class Inputs {
        var factor = Double.nan
        var arrivals = Double.nan
    }

    let integrator: ODEIntegrator
    let inputs: Inputs

    init(integrator: ODEIntegrator, inputs: Inputs) {
        (self.integrator, self.inputs) = (integrator, inputs)
    }
}
