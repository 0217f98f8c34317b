import Foundation
import Stochastics

/// The fluid's fixed points under steady arrivals at full capacity, and what they make of the
/// server: stable, vulnerable (metastable) or collapsed.
extension FluidModel {
    /// Which fixed points the server has.
    public enum Regime: String, Sendable, CaseIterable {
        /// Only the low point: the queue empties after any trigger.
        case stable
        /// A low and a high point: a large enough trigger tips it into the high one, where it
        /// stays after the trigger ends (metastable failure).
        case vulnerable
        /// Only the high point: the retries alone keep the queue full (or growing).
        case collapsed
    }

    /// The fixed points, and the least backlog that tips a vulnerable server.
    public struct Equilibria: Sendable, Equatable {
        public let regime: Regime
        /// Successes a second at the low point (the queue empty), all replicas; `nil` without one.
        public let lowGoodput: Double?
        /// Successes a second at the high point (the queue full), all replicas; `nil` without one.
        public let highGoodput: Double?
        /// The least number of attempts waiting at one replica, over its busy workers, from which
        /// the server does not drain back to the low point with the retry stages at rest; `nil`
        /// unless vulnerable, or when not even a full queue tips it.
        public let tippingBacklog: Double?
    }

    /// The fixed points of the fluid under arrivals at ``arrivalRate`` forever, at full capacity.
    ///
    /// With the queue empty an attempt fails with q₀ = P(S > T), a request makes A(q₀) attempts,
    /// and the low point holds while the work they bring is under the workers: λ A(q₀) s < c. With
    /// the queue full (its wait w_max = K s / c, or T for a server that drops expired work) an
    /// admitted attempt fails with q_max = q(w_max); the high point holds when the work still
    /// reaches the workers there: λ A(q_max) s ≥ c. A(q(w)) rises with w, so no point lies in
    /// between save the unstable one that separates the two.
    ///
    /// The tipping backlog is found by bisection over trajectories of the equations (each from
    /// the low point's retry stages with a backlog added, followed for `tippingHorizon(backlog:)`): the
    /// quasi-static threshold would ignore that a queue drains while its retries are on their way.
    /// - Throws: a GSL failure of an integration.
    public func equilibria() throws(StochasticsError) -> Equilibria {
        let points = fixedPoints()
        var tipping: Double?
        if points.regime == .vulnerable {
            let (limit, _) = workLimit(factor: 1)
            tipping = try tippingBacklog(places: limit - Double(workers), idleFailure: timeoutProbability(wait: 0))
        }
        return Equilibria(
            regime: points.regime, lowGoodput: points.lowGoodput, highGoodput: points.highGoodput,
            tippingBacklog: tipping)
    }

    /// The fixed points alone, without the tipping backlog (no integration: a few thousand
    /// evaluations of A).
    public func fixedPoints() -> (regime: Regime, lowGoodput: Double?, highGoodput: Double?) {
        let c = Double(workers)
        let rate = arrivalRate / Double(replicas)
        let s = meanService
        let idleFailure = timeoutProbability(wait: 0)
        let (limit, _) = workLimit(factor: 1)
        let fullFailure = timeoutProbability(wait: (limit - c) * s / c)
        let hasLow = rate * attemptsPerRequest(failing: idleFailure) * s < c
        let hasHigh = holdsFull(rate: rate, drain: c / s, failure: fullFailure)
        let regime: Regime = hasLow ? (hasHigh ? .vulnerable : .stable) : .collapsed
        let scale = Double(replicas)
        return (
            regime, hasLow ? scale * rate * (1 - pow(idleFailure, Double(maxAttempts))) : nil,
            hasHigh ? scale * c / s * (1 - fullFailure) : nil
        )
    }

    /// Whether a full queue can hold: whether some offered rate a ≥ D (the drain) is its own
    /// cause, λ A(p(a)) ≥ a, where an attempt fails with p(a) = 1 − (D / a)(1 − q_max) (refused,
    /// or admitted and timed out). At a = D this is λ A(q_max) ≥ D; above, A rises with a, so the
    /// condition may hold further out (a loss system's own bistability): a grid of a thousand
    /// rates up to λn, where it cannot hold, finds it.
    private func holdsFull(rate: Double, drain: Double, failure: Double) -> Bool {
        func excess(_ offered: Double) -> Double {
            rate * attemptsPerRequest(failing: 1 - drain / offered * (1 - failure)) - offered
        }
        let most = rate * Double(maxAttempts)
        guard most > drain else { return excess(drain) >= 0 }
        return (0...1000).contains { step in excess(drain * pow(most / drain, Double(step) / 1000)) >= 0 }
    }

    /// How long a trajectory from `backlog` is followed, at most, before it is judged: five times
    /// a request's longest life away from the queue (every attempt timing out, every retry wait),
    /// at least 10 s, and four times the backlog's drain by the workers' spare capacity (at most
    /// ``horizonLimit``).
    func tippingHorizon(backlog: Double) -> Double {
        let c = Double(workers)
        let spare = max(1e-3, 1 - arrivalRate / Double(replicas) * meanService / c)
        return min(Self.horizonLimit, max(10, 5 * longestLife) + 4 * backlog * meanService / c / spare)
    }

    /// The least backlog, to a ten-thousandth of itself, from which the server tips; `nil` when a
    /// full queue drains too. The search doubles from the quasi-static threshold's backlog (or
    /// one attempt) until a backlog tips, then bisects.
    private func tippingBacklog(places: Double, idleFailure: Double) throws(StochasticsError) -> Double? {
        // A copy of a valid model, with arrivals forever at full capacity, is valid.
        let steady = FluidModel(
            arrivalRate: arrivalRate, arrivalsEnd: nil, replicas: replicas, workers: workers, queueLimit: queueLimit,
            serviceTime: serviceTime, timeout: timeout, dropsExpired: dropsExpired, retryWaits: retryWaits)!
        var drains = 0.0
        var tips = min(places, max(1, quasiStaticBacklog(places: places)))
        while try !steady.tips(from: tips, idleFailure: idleFailure) {
            guard tips < places else { return nil }
            drains = tips
            tips = min(places, 2 * tips)
        }
        while tips - drains > 1e-4 * max(1, tips) {
            let middle = (drains + tips) / 2
            if try steady.tips(from: middle, idleFailure: idleFailure) { tips = middle } else { drains = middle }
        }
        return tips
    }

    /// The backlog of the quasi-static threshold: the least wait w at which λ A(q(w)) s ≥ c,
    /// times c / s (by bisection over the waits a queue of `places` allows; q rises with w).
    private func quasiStaticBacklog(places: Double) -> Double {
        let (c, s) = (Double(workers), meanService)
        let rate = arrivalRate / Double(replicas)
        var (low, high) = (0.0, places * s / c)
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if rate * attemptsPerRequest(failing: timeoutProbability(wait: middle)) * s >= c {
                high = middle
            } else {
                low = middle
            }
        }
        return high * c / s
    }

    /// Whether the server, with `backlog` attempts waiting over its busy workers and its retry
    /// stages at the low point's rest, does not come back to the low point: it is followed in
    /// steps of a second (longer as time goes on) until it is back (its queue empty and its
    /// requests retrying within a thousandth of the low point's), and it has tipped if it settles
    /// elsewhere (the work and the requests retrying move by less than a millionth of a request in
    /// a step) or is not back by `tippingHorizon(backlog:)`.
    func tips(from backlog: Double, idleFailure: Double) throws(StochasticsError) -> Bool {
        let layout = layout
        let c = Double(workers)
        let rate = arrivalRate / Double(replicas)
        var y = [Double](repeating: 0, count: layout.dimension)
        y[layout.work] = c + backlog
        var failing = rate * idleFailure  // attempt k + 1's failures a second, at the low point
        for k in 0..<layout.retries {
            for stage in 0..<Self.learningStages {
                y[layout.learning(k, stage: stage)] = failing * (timeout ?? 0) / Double(Self.learningStages)
            }
            y[layout.waiting(k)] = failing * retryWaits[k]
            failing *= idleFailure
        }
        let integrator = try integrator()
        let horizon = tippingHorizon(backlog: backlog)
        // The low point's requests retrying: back within a thousandth of them with the queue
        // empty, the server has drained.
        let resting = inFlight(y) - y[layout.work]
        var t = 0.0
        var before = (work: y[layout.work], retrying: inFlight(y))
        while t < horizon {
            let step = min(horizon - t, Self.longestStep, max(1, t / 10))
            try advance(&y, from: t, to: t + step, integrator)
            t += step
            if y[layout.work] <= c && inFlight(y) - y[layout.work] <= resting * 1.001 + 1e-9 { return false }
            let now = (work: y[layout.work], retrying: inFlight(y))
            if abs(now.work - before.work) < 1e-6 && abs(now.retrying - before.retrying) < 1e-6 { break }
            before = now
        }
        return true
    }
}
