import Stochastics

/// The start times of an event-ordered run's sessions, in order, handed out one at a time as the
/// run reaches them: a Poisson process may be drawn as it goes, so that its arrivals take no memory.
///
/// The count is known before the run starts (the standard errors' batches need it), so a Poisson
/// process drawn as the run goes is drawn twice from the same seed: once before the run to count
/// its arrivals, then as the run goes. That costs a second draw per arrival, and saves 8 bytes
/// per arrival: a run whose memory follows the sessions in flight (``Scenario/recyclesClients``)
/// draws this way, any other draws its arrivals ahead. Either way the times are those of
/// ``Scenario/arrivalTimes(seed:algorithm:)``, one for one (tested).
struct ArrivalSequence {
    private enum Kind {
        /// Every session at 0.
        case burst
        /// Times drawn before the run, sorted (uniform arrivals).
        case drawn
        /// A Poisson process drawn as the run goes.
        case poisson
    }

    private let kind: Kind
    /// The drawn times (`drawn` only).
    private let times: [Int64]
    /// The Poisson process's generator, mean gap and end, in nanoseconds, and its last arrival.
    private let random: RandomGenerator?
    private let meanGap: Double
    private let end: Double
    private var time = 0.0
    /// The sessions in all.
    let count: Int
    /// The sessions handed out so far: the index of the next one.
    private(set) var handedOut = 0

    /// The arrivals of `scenario`, drawn from a generator of `algorithm` seeded with `seed`: all
    /// before the run, or a Poisson process's as the run goes when `drawsAsItGoes`.
    init(_ scenario: Scenario, seed: UInt64, algorithm: GeneratorAlgorithm, drawsAsItGoes: Bool) throws {
        var (times, random, meanGap, end) = ([Int64](), RandomGenerator?.none, 0.0, 0.0)
        switch scenario.arrivals {
        case .burst:
            kind = .burst
            count = scenario.clients
        case .poisson where !drawsAsItGoes, .uniform:
            kind = .drawn
            times = try scenario.arrivalTimes(seed: seed, algorithm: algorithm)
            count = times.count
        case .poisson(let rate, let duration):
            kind = .poisson
            (meanGap, end) = (1e9 / rate, Double(duration.wholeNanoseconds))
            let counting = try RandomGenerator(algorithm: algorithm, seed: seed)
            var (arrivals, time) = (0, 0.0)
            while true {
                time += counting.exponential(mean: meanGap)
                guard time < end else { break }
                arrivals += 1
            }
            count = arrivals
            random = try RandomGenerator(algorithm: algorithm, seed: seed)
        }
        (self.times, self.random, self.meanGap, self.end) = (times, random, meanGap, end)
    }

    /// The next session's start, in nanoseconds, or `nil` once every session has started.
    @inline(__always)
    mutating func next() -> Int64? {
        guard handedOut < count else { return nil }
        defer { handedOut += 1 }
        switch kind {
        case .burst: return 0
        case .drawn: return times[handedOut]
        case .poisson:
            // As ``Scenario/arrivalTimes(seed:algorithm:)`` draws them; the count says where they end.
            time += random.unsafelyUnwrapped.exponential(mean: meanGap)
            return Int64(time)
        }
    }
}
