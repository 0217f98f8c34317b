import EventSimulation
import RetrySimulation

extension SimulateCommand {
    /// The capacity server's shape and the arrivals' duration (``ScenarioColumns`` declares each),
    /// from which `check` recomputes the row's fluid cells.
    static let capacityColumns: [Column<SimulateRow>] = [
        ScenarioColumns.workers.column { $0.scenario.capacityModel?.workers },
        ScenarioColumns.queue.column { $0.scenario.capacityModel?.queueLimit },
        ScenarioColumns.duration.column { row in
            if case .poisson(_, let duration) = row.scenario.arrivals { return duration }
            return nil
        },
        ScenarioColumns.dropsExpired.column { $0.scenario.capacityModel?.dropsExpired },
        ScenarioColumns.degradeFrom.column {
            $0.scenario.capacityModel?.degradation.map { .nanoseconds($0.start.nanoseconds) }
        },
        ScenarioColumns.degradeUntil.column {
            $0.scenario.capacityModel?.degradation.map { .nanoseconds($0.end.nanoseconds) }
        },
        ScenarioColumns.degradeTo.column { $0.scenario.capacityModel?.degradation?.fraction },
        ScenarioColumns.capacityTrace.column { $0.scenario.capacityModel.map { $0.capacityProfile != nil } },
    ]
}
