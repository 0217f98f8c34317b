/// When clients start their sessions.
public enum Arrivals: Hashable, Sendable {
    /// All at t = 0: the herd after a failure.
    case burst
    /// N clients at independent uniform times in [0, window) nanoseconds.
    case uniform(window: Duration)
    /// An open-loop Poisson process of `rate` clients per second over [0, duration) nanoseconds;
    /// interarrival times are exponential (drawn with `gsl_ran_exponential`), and the number of
    /// clients is whatever the process produces.
    case poisson(ratePerSecond: Double, duration: Duration)
}
