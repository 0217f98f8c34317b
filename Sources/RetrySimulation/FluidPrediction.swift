import EventSimulation
import Stochastics

/// What the fluid model predicts of a run (`simulate`'s `fluid_*` columns), beside what the run
/// measured: its regime, the share of requests that succeed, the attempts per request, and, with
/// a capacity drop that ends, whether and when goodput comes back by the rule the run's own
/// `recovered` column uses (``GoodputRecovery``).
public struct FluidPrediction: Sendable {
    public let regime: FluidModel.Regime
    public let successFraction: Double
    public let attemptsPerRequest: Double
    /// With a capacity drop that ends: the recovery time in nanoseconds after its end, or `nil`
    /// when goodput does not come back within the rule's horizon. `nil` in `recovered` without
    /// such a drop.
    public let recovered: Bool?
    public let recoveryTime: Int64?
}

extension Scenario {
    /// The fluid's prediction of this scenario's run, where ``fluidModel`` covers it.
    /// - Throws: a GSL failure of the integration.
    public func fluidPrediction() throws(StochasticsError) -> FluidPrediction? {
        guard let model = fluidModel, case .capacity(let capacity) = server else { return nil }
        let width = bucketWidth.wholeNanoseconds
        let trigger = capacity.triggerStart.flatMap { start in capacity.recoveryTime.map { (start, $0) } }
        let detail = trigger.map { $0.1.nanoseconds + GoodputRecovery.span } ?? 0
        let trajectory = try model.trajectory(bucketWidth: width, detailUntil: detail)
        var time: Int64?
        if let (start, end) = trigger {
            time = GoodputRecovery.time(
                successes: trajectory.successes, bucketWidth: width, triggerStart: start, triggerEnd: end)
        }
        return FluidPrediction(
            regime: model.fixedPoints().regime, successFraction: trajectory.successFraction,
            attemptsPerRequest: trajectory.attemptsPerRequest,
            recovered: trigger.map { _ in time != nil }, recoveryTime: time)
    }
}
