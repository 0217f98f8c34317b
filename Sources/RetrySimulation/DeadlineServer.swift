import BackoffPolicies
import EventSimulation
import Foundation

/// A server that honours the deadline each request carries, as gRPC asks of a server
/// (`--server deadline[:workers=C][:service=MEAN][:queue=K]`): C workers serve a FIFO queue of K
/// places with exponential service times of mean MEAN, and the caller's deadline (the client's
/// `--timeout`, or the bottom layer's per-try timeout under a stack) travels with each attempt. A
/// worker drops a queued attempt whose deadline has passed, and stops work in service when its
/// deadline passes (the handler sees its context cancelled), so no worker serves a caller that has
/// gone: the capacity server's `--drop-expired` checks only before service, and serves on.
///
/// With one worker, no queue limit, Poisson arrivals of rate λ, one attempt per request and a
/// deadline D, the age of the oldest request present is a Markov process (the requests behind it
/// are the arrivals since it came, a Poisson process whatever happened before). Its density on
/// (0, D) is λ p₀ e^((λ − μ) x), so with x = (λ − μ) D
/// ```
/// P(lost) = p₀ e^x = 1 / (e^(−x) + λ D (1 − e^(−x)) / x)        (λ = μ: 1 / (1 + λ D))
/// ```
/// which tends to P(S > D) = e^(−μD) as λ → 0 and to 0 as D grows when λ < μ.
public struct DeadlineServer: ServerComponent {
    /// Workers, at least 1.
    public let workers: Int
    /// The exponential service time's mean, above 0.
    public let meanService: Duration
    /// Queue places; `nil` for no limit.
    public let queueLimit: Int?

    /// The model; ``validate()`` checks the ranges.
    /// - Parameters:
    ///   - workers: Workers, at least 1.
    ///   - meanService: The exponential service time's mean.
    ///   - queueLimit: Queue places; `nil` for no limit.
    public init(workers: Int = 1, meanService: Duration = .milliseconds(20), queueLimit: Int? = nil) {
        (self.workers, self.meanService, self.queueLimit) = (workers, meanService, queueLimit)
    }

    public static let name = "deadline"
    public static let usage = "deadline"
    public static let form =
        "deadline[:workers=C][:service=MEAN][:queue=K] (C >= 1 workers, default 1; MEAN > 0 the exponential service "
        + "time's mean, default 20ms; K >= 0 queue places, default no limit)"
    public static let help = [
        "C workers (:workers=C, default 1) serve a FIFO queue of K places (:queue=K, no",
        "limit by default); service times are exponential of mean MEAN (:service=MEAN,",
        "20ms). Each attempt carries its caller's deadline (--timeout): a worker drops a",
        "queued attempt past it and stops work in service when it passes (expired_drops",
        "counts both), as gRPC asks of a server; capacity's --drop-expired serves on.",
        "With one worker, no queue limit, Poisson arrivals and one attempt,",
        "formula_successes is exact: 1 - P(lost), P(lost) = 1 / (e^-x + lambda D",
        "(1 - e^-x) / x), x = (lambda - mu) D.",
    ]

    /// `workers=C`, `service=MEAN` and `queue=K` in any order, each at most once.
    public init?(parameters: String?) {
        var (workers, service, queue): (Int?, Duration?, Int?) = (nil, nil, nil)
        for part in parameters?.split(separator: ":", omittingEmptySubsequences: false) ?? [] {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let value = String(part[part.index(after: equals)...])
            switch part[..<equals] {
            case "workers" where workers == nil:
                guard let count = Self.count(value) else { return nil }
                workers = count
            case "service" where service == nil:
                guard let mean = DurationText.duration(value) else { return nil }
                service = mean
            case "queue" where queue == nil:
                guard let count = Self.count(value) else { return nil }
                queue = count
            default: return nil
            }
        }
        self.init(workers: workers ?? 1, meanService: service ?? .milliseconds(20), queueLimit: queue)
    }

    /// A whole number in decimal digits.
    private static func count(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    public var specText: String {
        "deadline:workers=\(workers):service=\(meanService.unitText)" + (queueLimit.map { ":queue=\($0)" } ?? "")
    }

    public func validate() throws(SimulationError) {
        guard workers >= 1 else { throw .noWorkers(workers) }
        guard meanService > .zero else { throw .nonPositiveServiceTime }
        if let queueLimit, queueLimit < 0 { throw .negativeQueueLimit(queueLimit) }
    }

    public var takesTimeouts: Bool { true }
    public var reusesSlots: Bool { true }

    /// The single worker's loss probability above, for Poisson arrivals of one request with one
    /// attempt each, no queue limit, a timeout and nothing else in the way.
    public func closedForm(in scenario: Scenario) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    )? {
        guard workers == 1, queueLimit == nil, case .poisson(let lambda, _) = scenario.arrivals,
            let deadline = scenario.attemptTimeout, scenario.policy.maxAttempts == 1, scenario.limits.isEmpty,
            scenario.layers.isEmpty, scenario.requestsPerClient == 1, scenario.permanentFraction == 0
        else { return nil }
        return (1, 0, 1 - Self.lossProbability(lambda: lambda, mu: 1e9 / meanService.nanoseconds, deadline: deadline))
    }

    /// P(lost) for one worker, arrivals of rate `lambda` and services of rate `mu` a second, and a
    /// deadline on the time in the system.
    static func lossProbability(lambda: Double, mu: Double, deadline: Duration) -> Double {
        let d = deadline.nanoseconds / 1e9
        let x = (lambda - mu) * d
        let growth = x == 0 ? 1 : -expm1(-x) / x  // (1 − e^(−x)) / x, 1 at x = 0
        return 1 / (exp(-x) + lambda * d * growth)
    }

    /// The queue's entries: one per attempt waiting, up to the queue limit or every session.
    public func memory(in scenario: Scenario) -> [MemoryEstimate.Item] {
        let sessions = scenario.expectedSessions
        let places = queueLimit.map { min(Double($0), sessions) } ?? sessions
        return [
            .init(
                parameter: "--server \(specText)",
                what: "up to \(MemoryEstimate.count(places)) queued attempts, 32 bytes each",
                bytes: places * 32)
        ]
    }

    public func run(on runner: ServerRunner) throws -> ScenarioReport { try runner.run(Machine.self) }

    /// The server's machine: its workers, its queue, and each attempt's deadline.
    struct Machine: ComponentMachine {
        enum Event: UInt32, CaseIterable {
            /// A worker finishes the attempt numbered by the event's value.
            case served
            /// The deadline of the attempt in service passes: its worker stops.
            case cancelled
        }

        static var eventKinds: UInt32 { UInt32(Event.allCases.count) }
        /// An attempt leaves through an answer, a rejection (queue full), wasted work, or a drop.
        static var releasesEveryAttempt: Bool { true }

        struct Waiting {
            let client: Int32
            let attempt: Int64
            let deadline: Int64
        }

        private let workers: Int
        private let queueLimit: Int
        /// Nanoseconds.
        private let meanService: Double
        /// How long the server's caller waits for an attempt, in nanoseconds; `nil` for ever.
        private let timeout: Int64?
        private var busy = 0
        private var queue = RingBuffer<Waiting>()

        init(_ model: DeadlineServer, scenario: Scenario, seed: UInt64) {
            workers = model.workers
            queueLimit = model.queueLimit ?? .max
            meanService = model.meanService.nanoseconds
            // The caller is the client, or below a stack its bottom layer's call.
            let callerTimeout = scenario.layers.last.map(\.timeoutNanoseconds) ?? scenario.timeoutNanoseconds
            timeout = callerTimeout == .max ? nil : callerTimeout
        }

        mutating func receive<Decisions: ServerDecisions>(
            client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
        ) {
            decisions.counted(client, isRetry: isRetry, answeredAtOnce: nil)
            let deadline = timeout.map { decisions.now.nanoseconds + $0 } ?? .max
            if busy < workers {
                start(Waiting(client: Int32(client), attempt: attempt, deadline: deadline), &decisions)
            } else if queue.count < queueLimit {
                queue.append(Waiting(client: Int32(client), attempt: attempt, deadline: deadline))
                decisions.queued(length: queue.count)
            } else {
                decisions.reject(client, retryAfter: nil)
                return
            }
            decisions.armTimeout(client, attempt: attempt)
        }

        mutating func handle<Decisions: ServerDecisions>(
            _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
        ) {
            let (client, attempt) = (event.client, Int64(event.value))
            busy -= 1
            if number == Event.cancelled.rawValue {
                decisions.dropped(client, attempt: attempt)
            } else if decisions.isAwaiting(client, attempt: attempt) {
                let permanent = decisions.isPermanent(client)
                decisions.answer(
                    client, permanent ? .permanentError : .success, recording: permanent ? .failure : .success)
            } else {
                decisions.wasted(client, attempt: attempt)
            }
            // A free worker takes the next attempt whose caller still waits.
            while let next = queue.popFirst() {
                decisions.queued(length: queue.count)
                let client = Int(next.client)
                // Work its caller cancelled (deadline propagation in a stack) leaves unserved.
                guard !decisions.takeCancellation(client, attempt: next.attempt) else { continue }
                guard decisions.now.nanoseconds < next.deadline, decisions.isAwaiting(client, attempt: next.attempt)
                else {
                    decisions.dropped(client, attempt: next.attempt)
                    continue
                }
                start(next, &decisions)
                break
            }
        }

        /// A worker takes `attempt`: it ends served after an exponential draw from its client's
        /// stream, or cancelled at its deadline if that comes first.
        private mutating func start<Decisions: ServerDecisions>(_ attempt: Waiting, _ decisions: inout Decisions) {
            busy += 1
            let client = Int(attempt.client)
            decisions.serviceStarted(client, attempt: attempt.attempt)
            let draw = decisions.exponential(for: client, mean: meanService)
            let service = max(1, Int64(min(draw, Self.longestService) + 0.5))
            let left = attempt.deadline - decisions.now.nanoseconds
            let (event, delay) = service > left ? (Event.cancelled, left) : (Event.served, service)
            decisions.schedule(event.rawValue, for: client, value: attempt.attempt, after: delay)
        }

        /// The longest service time, in nanoseconds: virtual time's horizon.
        private static var longestService: Double { Double(VirtualTime.horizon.nanoseconds) }
    }
}
