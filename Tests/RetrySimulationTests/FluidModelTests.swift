import BackoffPolicies
import Foundation
import Testing

@testable import RetrySimulation

/// The fluid's equations against their own fixed points, worked out by hand, and against what
/// any flow must keep (every request ends once, as a success or a give-up).
struct FluidModelTests {
    /// c = 4 workers of mean service s, K places, λ a second, timeout T, n attempts whose retries
    /// wait 50 ms on average.
    static func model(
        rate: Double, service: ServiceTime = .exponential(mean: .milliseconds(4)), places: Int = 50,
        timeout: Double? = 0.06, attempts: Int = 4, end: Double? = nil,
        capacity: [FluidModel.CapacityStep] = [FluidModel.CapacityStep(start: 0, factor: 1)]
    ) -> FluidModel {
        FluidModel(
            arrivalRate: rate, arrivalsEnd: end, workers: 4, queueLimit: places, serviceTime: service,
            timeout: timeout, retryWaits: [Double](repeating: 0.05, count: attempts - 1), capacity: capacity)!
    }

    /// Without a timeout nothing fails but a refusal, and a request makes one attempt while the
    /// queue has room: the server is stable below its capacity c/s = 1000 a second and collapsed
    /// from it on (its queue then stays full).
    @Test func withoutATimeoutTheRegimeIsTheLoadAlone() {
        #expect(Self.model(rate: 999, timeout: nil).fixedPoints().regime == .stable)
        #expect(Self.model(rate: 1000, timeout: nil).fixedPoints().regime == .collapsed)
        #expect(Self.model(rate: 999, timeout: nil).fixedPoints().lowGoodput == 999)
    }

    /// Exponential service of 4 ms, a full queue's wait K s / c = 50 ms and T = 60 ms: an attempt
    /// fails with q0 = e^(−15) on an idle server and q_max = e^(−2.5) at a full one. A request
    /// makes A(q) = 1 + q + q² + q³ attempts. At λ = 950, λ A(q0) s = 3.8 < 4 and
    /// λ A(q_max) s = 4.14 ≥ 4: vulnerable, with goodputs λ (1 − q0⁴) and c/s (1 − q_max).
    @Test func theFixedPointsAreTheHandWorkedOnes() throws {
        let points = Self.model(rate: 950).fixedPoints()
        #expect(points.regime == .vulnerable)
        let (q0, qMax) = (exp(-15.0), exp(-2.5))
        #expect(abs(points.lowGoodput! - 950 * (1 - pow(q0, 4))) < 1e-9)
        #expect(abs(points.highGoodput! - 1000 * (1 - qMax)) < 1e-9)
        // λ A(q_max) s < c below λ = 4 / (A(q_max) s) = 918.7: stable.
        let threshold = 4 / ((1 + qMax + qMax * qMax + pow(qMax, 3)) * 0.004)
        #expect(Self.model(rate: threshold - 0.5).fixedPoints().regime == .stable)
        #expect(Self.model(rate: threshold + 0.5).fixedPoints().regime == .vulnerable)
        // λ A(q0) s ≥ c from λ = 1000 (q0 is e^(−15)): collapsed.
        #expect(Self.model(rate: 1000).fixedPoints().regime == .collapsed)
    }

    /// Under steady arrivals from an empty server, the trajectory settles at the low point: the
    /// successes of its last buckets are the low goodput, to the integration's tolerance.
    @Test func aStableTrajectorySettlesAtTheLowPoint() throws {
        // T = 10 ms against 4 ms services: q0 = e^(−2.5), so the low point has retries in it.
        let model = Self.model(rate: 700, timeout: 0.01, end: 60)
        let trajectory = try model.trajectory(bucketWidth: 1_000_000_000, detailUntil: 50_000_000_000)
        let low = try #require(model.fixedPoints().lowGoodput)
        #expect(abs(trajectory.successes[49] - low) < 1e-6 * low, "\(trajectory.successes[49]) against \(low)")
        let q0 = exp(-2.5)
        #expect(abs(low - 700 * (1 - pow(q0, 4))) < 1e-9)
    }

    /// A capacity drop to half for a second tips the vulnerable server at λ = 950: after it, the
    /// queue stays full and the goodput is the high point's, c/s (1 − q_max), for as long as
    /// arrivals last.
    @Test func aTippedTrajectoryHoldsTheHighPoint() throws {
        let drop = [
            FluidModel.CapacityStep(start: 0, factor: 1), FluidModel.CapacityStep(start: 2, factor: 0.3),
            FluidModel.CapacityStep(start: 4, factor: 1),
        ]
        let model = Self.model(rate: 950, end: 60, capacity: drop)
        let trajectory = try model.trajectory(bucketWidth: 1_000_000_000, detailUntil: 50_000_000_000)
        let high = try #require(model.fixedPoints().highGoodput)
        #expect(abs(trajectory.successes[49] - high) < 1e-5 * high, "\(trajectory.successes[49]) against \(high)")
    }

    /// Every request ends once: after the drain, successes and give-ups add up to the requests.
    @Test(arguments: [400.0, 950, 1500])
    func everyRequestEndsOnce(rate: Double) throws {
        let service = ServiceTime.mixture([
            .init(weight: 0.9, time: .deterministic(.milliseconds(2))),
            .init(weight: 0.1, time: .lognormal(mean: .milliseconds(30), standardDeviation: .milliseconds(20))),
        ])
        let model = Self.model(rate: rate, service: service, end: 10)
        let trajectory = try model.trajectory(bucketWidth: 100_000_000, detailUntil: 0)
        #expect(trajectory.drained)
        let ended = trajectory.totalSuccesses + trajectory.totalGiveUps
        #expect(abs(ended - trajectory.requests) < 1e-6 * trajectory.requests, "\(ended) of \(trajectory.requests)")
        #expect(trajectory.totalAttempts >= trajectory.requests)
    }

    /// The tipping backlog divides the backlogs that drain from those that tip: a hundredth less
    /// drains, a hundredth more tips. Fixed 4 ms services, 1,000 places and T = 200 ms: an attempt
    /// behind more than 196 waiting times out, yet a backlog drains while its retries are on their
    /// way, so the backlog that tips lies above 196 (the quasi-static threshold) and below the queue.
    @Test func theTippingBacklogDividesDrainingFromTipping() throws {
        let model = Self.model(
            rate: 500, service: .deterministic(.milliseconds(4)), places: 1000, timeout: 0.2, attempts: 10)
        let equilibria = try model.equilibria()
        #expect(equilibria.regime == .vulnerable)
        let backlog = try #require(equilibria.tippingBacklog)
        #expect(backlog > 196 && backlog < 1000)
        let idle = model.timeoutProbability(wait: 0)
        #expect(try !model.tips(from: backlog * 0.99, idleFailure: idle))
        #expect(try model.tips(from: backlog * 1.01, idleFailure: idle))
        #expect(try model.equilibria() == equilibria, "the same model gives the same numbers")
    }

    /// A tipping point needs retries on their way: at λ = 950 with a full queue's wait under T, a
    /// full queue drains before the retries it causes arrive (the excess over the drain is 3.5 %),
    /// though a longer trigger, which builds the retries up, tips it (above).
    @Test func aBacklogAloneMayNotTip() throws {
        let equilibria = try Self.model(rate: 950).equilibria()
        #expect(equilibria.regime == .vulnerable)
        #expect(equilibria.tippingBacklog == nil)
    }

    /// A wait is the drain to come: behind 300 attempts with 4 workers of 4 ms (a millisecond
    /// each at full capacity) and capacity at 0.3 for the next 0.2 s, the workers drain 60 in the
    /// drop and the other 240 in 0.24 s after it, so w = 0.44 s; the attempt's 4 ms service
    /// (fixed) then starts at full capacity.
    @Test func aWaitIsTheDrainToCome() {
        let drop = [
            FluidModel.CapacityStep(start: 0, factor: 1), FluidModel.CapacityStep(start: 1, factor: 0.3),
            FluidModel.CapacityStep(start: 1.2, factor: 1),
        ]
        let fixed = ServiceTime.deterministic(.milliseconds(4))
        let just = Self.model(rate: 1, service: fixed, timeout: 0.4441, capacity: drop)
        let short = Self.model(rate: 1, service: fixed, timeout: 0.4439, capacity: drop)
        #expect(just.timeoutProbability(backlog: 300, at: 1) == 0)
        #expect(short.timeoutProbability(backlog: 300, at: 1) == 1)
        // A service that starts inside the drop takes 4 ms / 0.3: 50 attempts wait 0.05 / 0.3 s.
        let inside = Self.model(rate: 1, service: fixed, timeout: 0.05 / 0.3 + 0.004 / 0.3 + 1e-9, capacity: drop)
        #expect(inside.timeoutProbability(backlog: 50, at: 1) == 0)
    }

    /// A model too stiff for an explicit integrator has no fluid: 1 ns services over 10 s of
    /// arrivals make a rate of 10^9 times a span of 10 s, past the limit of 10^7 (minutes of
    /// steps), while 4 ms services (250 a second) are far within it.
    @Test func aModelTooStiffToIntegrateHasNoFluid() {
        let stiff = FluidModel(
            arrivalRate: 100, arrivalsEnd: 10, workers: 4, queueLimit: 50, serviceTime: .deterministic(.nanoseconds(1)),
            timeout: 1e-9, retryWaits: [0.05])
        #expect(stiff == nil)
        let usual = FluidModel(
            arrivalRate: 950, arrivalsEnd: 10, workers: 4, queueLimit: 50,
            serviceTime: .exponential(mean: .milliseconds(4)),
            timeout: 0.06, retryWaits: [0.05])
        #expect(usual != nil)
    }
}
