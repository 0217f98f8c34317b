import RetrySimulation
import Stochastics

/// What one row of `backoff simulate` is written from: one jitter mode's scenario and report.
///
/// A class, so each of the table's eighty column closures takes a reference: as a struct, every
/// call copied the scenario and report (a memcpy of some 200 instructions, and their references
/// counted): the columns of a row took 35,000 instructions, 16,000 since (callgrind).
final class SimulateRow {
    let scenario: Scenario
    let report: ScenarioReport
    /// The expected load of a burst against an outage (`nil` where no convolution applies).
    let load: OutageLoad?
    let formula: (attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double)?
    let seed: UInt64
    let generator: GeneratorAlgorithm
    /// With a capacity drop that ends: whether goodput came back, and when (read by two columns).
    let recovery: (recovered: String, time: String)
    /// The hedge's closed forms, integrated once (read by three columns).
    let hedgeFormula: (copies: Double, meanResponse: Double, work: Double)?
    /// The fluid model's prediction, where it covers the scenario.
    let fluid: FluidPrediction?

    init(
        scenario: Scenario, report: ScenarioReport, load: OutageLoad?, seed: UInt64,
        generator: GeneratorAlgorithm, fluid: FluidPrediction?
    ) {
        self.fluid = fluid
        self.scenario = scenario
        self.report = report
        self.load = load
        formula = scenario.closedForm(expectedLoad: load)
        self.seed = seed
        self.generator = generator
        recovery = Self.recovery(scenario, report)
        hedgeFormula = scenario.hedgeClosedForm
    }

    var clients: Double { Double(report.clients) }

    /// A standard error of the report, or `nil` (an empty cell) where none was measured: a burst
    /// of interacting clients run once (``StandardErrorMethod/unmeasured``).
    func standardError(_ value: Double?) -> Double? {
        report.errorMethod == .unmeasured ? nil : value
    }

    /// One of the hedge's closed forms (``Scenario/hedgeClosedForm``), or `nil`.
    func formula(_ value: KeyPath<(copies: Double, meanResponse: Double, work: Double), Double>) -> Double? {
        hedgeFormula.map { $0[keyPath: value] }
    }

    /// From the end of the trigger to the end of the last bucket above the steady load L + 3√L.
    var drainTime: Int64? {
        let steady = scenario.steadyFirstAttemptsPerBucket
        return scenario.triggerEnd.map {
            report.timeline.drainTime(after: $0, threshold: steady + 3 * steady.squareRoot())
        }
    }

    private static func recovery(_ scenario: Scenario, _ report: ScenarioReport) -> (recovered: String, time: String) {
        guard case .capacity(let model) = scenario.server, let start = model.triggerStart, let end = model.recoveryTime
        else { return ("", "") }
        let time = report.timeline.recoveryTime(triggerStart: start, triggerEnd: end)
        return (time == nil ? "no" : "yes", time.map { CSVFormat.seconds(nanoseconds: $0) } ?? "")
    }
}
