import Foundation

/// The M/M/1+D queue in closed form: Poisson arrivals at rate λ, one worker serving at rate μ
/// (exponential times), an unbounded FIFO queue, and callers that stop waiting D after they arrive,
/// whose work is dropped unserved if it has not started by then (a capacity server that
/// ``CapacityModel/dropsExpired``, clients with one attempt and `--timeout` D). Barrer (1957),
/// "Queuing with impatient customers and ordered service", Operations Research 5(5).
///
/// The virtual wait V (the wait an arrival would have before its service starts) has an atom P₀
/// at 0, the density λP₀e^{(λ−μ)x} on (0, D) and λP₀e^{(λ−μ)D}e^{−μ(x−D)} beyond (level crossing:
/// only an arrival that finds V < D adds its service time). An arrival that finds V ≥ D is dropped;
/// one that finds V < D is served, and answered in time unless V + S > D:
///
/// ```
/// P₀ = 1 / (1 + λ (e^{(λ−μ)D} − 1)/(λ − μ) + ρ e^{(λ−μ)D}),   ρ = λ/μ
/// P(served late) = P₀ e^{(λ−μ)D},   P(dropped) = ρ P₀ e^{(λ−μ)D}
/// ```
///
/// Stable for any load: past ρ = 1 the queue is held by the drops. Checked against the simulator
/// in `ImpatientQueueTests`.
public struct ImpatientQueue: Hashable, Sendable {
    /// λ, arrivals a second.
    public let arrivalRate: Double
    /// μ, services a second (one over the mean service time).
    public let serviceRate: Double
    /// D, the callers' patience, seconds.
    public let patience: Double

    /// A queue of finite positive rates and a finite patience of at least 0; `nil` otherwise.
    public init?(arrivalRate: Double, serviceRate: Double, patience: Double) {
        guard arrivalRate > 0, arrivalRate.isFinite, serviceRate > 0, serviceRate.isFinite, patience >= 0,
            patience.isFinite
        else { return nil }
        self.arrivalRate = arrivalRate
        self.serviceRate = serviceRate
        self.patience = patience
    }

    /// P₀: the share of arrivals that find the worker idle.
    public var idleProbability: Double {
        let rate = arrivalRate - serviceRate
        guard rate > 0 else {
            // e^{(λ−μ)D} ≤ 1: no term overflows.
            let integral = rate == 0 ? patience : expm1(rate * patience) / rate
            return 1 / (1 + arrivalRate * integral + arrivalRate / serviceRate * exp(rate * patience))
        }
        return lateFraction * exp(-rate * patience)
    }

    /// The share of arrivals served but answered after their caller stopped waiting (wasted work):
    /// P₀e^{(λ−μ)D}, computed past saturation as 1 / (e^{−(λ−μ)D} + λ(1 − e^{−(λ−μ)D})/(λ − μ) + ρ),
    /// so that a large (λ − μ)D does not overflow.
    public var lateFraction: Double {
        let rate = arrivalRate - serviceRate
        guard rate > 0 else { return idleProbability * exp(rate * patience) }
        let decay = exp(-rate * patience)
        return 1 / (decay + arrivalRate * -expm1(-rate * patience) / rate + arrivalRate / serviceRate)
    }

    /// The share of arrivals dropped unserved: ρ times the late share.
    public var droppedFraction: Double { arrivalRate / serviceRate * lateFraction }

    /// The share of arrivals answered within their patience.
    public var answeredFraction: Double { 1 - lateFraction - droppedFraction }
}
