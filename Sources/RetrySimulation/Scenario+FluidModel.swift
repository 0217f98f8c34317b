import BackoffPolicies
import EventSimulation

extension Scenario {
    /// The scenario as a ``FluidModel``, when its equations cover it; `nil` otherwise.
    ///
    /// They cover a capacity server of any service time, any number of replicas (which share the
    /// arrivals evenly) and any capacity drop, served first in first out, with or without dropping
    /// expired work; open arrivals (Poisson or uniform) of one request per client; a policy of n
    /// attempts whose expected waits have a closed form, with no maximum elapsed time, under a
    /// fixed timeout or none; a Retry-After on rejections only if the clients ignore it. Not:
    /// a burst (a herd at one instant is no fluid), faulty hosts, LIFO or shedding queues, patience,
    /// permanent errors, limits, layers, a deadline, a hedge or a recovery trigger.
    public var fluidModel: FluidModel? {
        guard case .capacity(let model) = server, model.queueDiscipline == .fifo, model.faultyHosts == nil,
            model.rejectionRetryAfter == nil || retryAfter == .ignore, requestsPerClient == 1,
            permanentFraction == 0, retryTrigger == .timer, patience == nil, limits.isEmpty, layers.isEmpty,
            deadline == nil, hedging == nil, policy.maxElapsed == nil, let starts = policy.expectedStartTimes
        else { return nil }
        let (rate, end): (Double, Double)
        switch arrivals {
        case .burst: return nil
        case .uniform(let window):
            guard window > .zero else { return nil }
            end = window.nanoseconds / 1e9
            rate = Double(clients) / end
        case .poisson(let perSecond, let duration):
            (rate, end) = (perSecond, duration.nanoseconds / 1e9)
        }
        let waits = zip(starts, starts.dropFirst()).map { $1 - $0 }
        return FluidModel(
            arrivalRate: rate, arrivalsEnd: end, replicas: model.replicas, workers: model.workers,
            queueLimit: model.queueLimit, serviceTime: model.serviceTime,
            timeout: attemptTimeout.map { $0.nanoseconds / 1e9 }, dropsExpired: model.dropsExpired,
            retryWaits: waits, capacity: model.fluidCapacity)
    }
}

extension CapacityModel {
    /// The capacity factor over time, in the fluid's seconds.
    var fluidCapacity: [FluidModel.CapacityStep] {
        var changes: [(start: Int64, factor: Double)] = [(0, 1)]
        if let degradation {
            changes += [(degradation.start.nanoseconds, degradation.fraction), (degradation.end.nanoseconds, 1)]
        } else if let profile = capacityProfile {
            changes += profile.steps.map { ($0.start.nanoseconds, $0.value) }
        }
        // A later change at the same instant replaces an earlier one (an empty window is none).
        var steps: [FluidModel.CapacityStep] = []
        for change in changes {
            let step = FluidModel.CapacityStep(start: Double(change.start) / 1e9, factor: change.factor)
            if steps.last?.start == step.start { steps[steps.count - 1] = step } else { steps.append(step) }
        }
        return steps
    }
}
