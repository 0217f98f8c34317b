import BackoffPolicies
import Retrying

/// What an app's network layer throws.
struct ServiceUnavailable: Error {}

/// A view model as an iOS app writes it: main-actor state, mutated by the retried closure.
@MainActor
final class FeedViewModel {
    private(set) var attempts = 0
    private(set) var items: [String] = []
    private(set) var isLoading = false
    private let retrier: Retrier<ContinuousClock>

    init(retrier: Retrier<ContinuousClock>) { self.retrier = retrier }

    func refresh() async throws {
        isLoading = true
        defer { isLoading = false }
        var random = SystemUniforms()
        items = try await retrier.run(using: &random) {
            attempts += 1
            if attempts < 3 { throw ServiceUnavailable() }
            return ["first", "second"]
        }
    }
}

/// A main-actor caller hedging a slow lookup: the first copy never answers in time, the second
/// (sent 5 ms later) does, and the first is cancelled. The copies run as child tasks (`@Sendable`);
/// the view model's state is set on the main actor from the result.
@MainActor
final class SearchViewModel {
    private(set) var result: Int?
    private let retrier: Retrier<ContinuousClock>

    init(retrier: Retrier<ContinuousClock>) { self.retrier = retrier }

    func search() async throws {
        var random = SystemUniforms()
        result = try await retrier.hedge(try Hedging(delay: .milliseconds(5), copies: 2), using: &random) { copy in
            if copy == 1 { try await Task.sleep(for: .seconds(60)) }
            return copy
        }
    }
}

/// A caller on no actor at all.
func fetchCount(with retrier: Retrier<ContinuousClock>) async throws -> Int {
    var random = SystemUniforms()
    var calls = 0
    return try await retrier.run(using: &random) {
        calls += 1
        if calls < 2 { throw ServiceUnavailable() }
        return calls
    }
}

@MainActor
func main() async throws {
    let policy = try BackoffPolicy(
        base: .milliseconds(1), cap: .milliseconds(10), jitter: .full, budget: .maxAttempts(5))
    let retrier = Retrier(policy: policy, breaker: SharedCircuitBreaker(try CircuitBreaker()))
    let model = FeedViewModel(retrier: retrier)
    try await model.refresh()
    precondition(model.attempts == 3 && model.items == ["first", "second"] && !model.isLoading)
    let count = try await fetchCount(with: retrier)
    precondition(count == 2)
    let search = SearchViewModel(retrier: retrier)
    try await search.search()
    precondition(search.result == 2)
    let outcome = await retrier.outcome(using: &SystemUniformsBox.shared.random) { () async throws -> Int in 7 }
    precondition(outcome.attempts.count == 1)
    print(
        "consumer: a @MainActor view model and a plain caller retried through Retrying (\(model.attempts) and \(count) "
            + "attempts), and a hedge answered by copy \(search.result ?? 0)"
    )
}

/// A generator the outcome call borrows (main-actor state, as an app might keep it).
@MainActor
final class SystemUniformsBox {
    static let shared = SystemUniformsBox()
    var random = SystemUniforms()
}

try await main()
