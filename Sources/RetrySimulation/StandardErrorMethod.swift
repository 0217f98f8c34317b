/// How a ``ScenarioReport``'s standard errors were measured. Each is the error of the report's
/// own means, read as estimates of their expectation over seeds.
public enum StandardErrorMethod: Hashable, Sendable {
    /// The independent sessions' (or requests') own spread / √n: true where the clients do not
    /// interact, each session a draw of its own.
    case independentSessions
    /// 32 batches of sessions (or of requests) in arrival order, the method of batch means: clients
    /// that interact and arrive over time, whose outcomes cluster in time.
    case batchMeans
    /// The sample standard deviation of the means over this many runs of the scenario (the
    /// report's own run and `count - 1` runs under derived seeds, ``Scenario/replications``): the
    /// spread of the report's means from seed to seed, measured.
    case replications(Int)
    /// Not measured (the standard errors are NaN): a burst of interacting clients is one draw of
    /// the state they share, so one run cannot measure how its means vary from seed to seed; its
    /// sessions' spread was wrong both ways, 3.6 times too small for an overloaded queue's
    /// successes and 10 times too large for the contention server's attempts. Replications of 2
    /// or more measure it (``Scenario/needsReplications``).
    case unmeasured
}
