import RetrySimulation

extension SimulateCommand {
    /// The fluid model's predictions beside the run's measures (empty where its equations do not
    /// cover the scenario: see `Scenario.fluidModel`). Never `formula_`: the fluid is the limit of
    /// ever larger runs, not an exact expectation of this one.
    static let fluidColumns: [Column<SimulateRow>] = fluidCells.map { $0.reading { $0.fluid } }

    /// The fluid columns, written from a prediction (`nil`: no fluid), as the table writes them and
    /// `check` writes them again from a row's columns.
    static let fluidCells: [Column<FluidPrediction?>] = [
        Column(
            "fluid_state",
            "the fluid's fixed points at full capacity under steady arrivals: stable (only a low one), vulnerable (a low "
                + "and a high one: a trigger can tip it) or collapsed (only the high one); empty where the fluid does "
                + "not apply (a burst, limits, layers, a hedge, a non-FIFO queue, ...) or is too stiff to integrate"
        ) { $0?.regime.rawValue ?? "" }.holdingText(),
        Column(
            "fluid_goodput",
            "the fluid's share of requests that succeed (compare successes / clients)"
        ) { CSVFormat.number($0?.successFraction) },
        Column(
            "fluid_attempts_per_client",
            "the fluid's attempts per request (compare attempts_per_client)"
        ) { CSVFormat.number($0?.attemptsPerRequest) },
        Column(
            "fluid_recovered",
            "with a degradation window: the fluid's recovered, by the same rule (empty: no window, or no fluid)"
        ) { $0?.recovered.map { $0 ? "yes" : "no" } ?? "" }.holdingText(),
        Column(
            "fluid_recovery_time_s",
            "the fluid's recovery_time_s, seconds after the window's end (empty: never, no window, or no fluid)"
        ) { $0?.recoveryTime.map { CSVFormat.seconds(nanoseconds: $0) } ?? "" },
    ]
}
