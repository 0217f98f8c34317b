import BackoffPolicies

extension Retrier {
    /// The elements of the sequence `subscribe` makes, re-subscribing after a failure as the policy
    /// allows: reactive streams' `retry`, in Swift concurrency. The same classifier, shared limits
    /// (budget, breaker, throttle) and events as ``run(isolation:using:classify:onEvent:operation:)``.
    ///
    /// Re-subscribing calls `subscribe` again and starts from the new sequence's beginning, so the
    /// elements already delivered before the failure are delivered again (RxSwift's `retry` does the
    /// same): a stream that fails after 1, 2 and succeeds on its third subscription yields
    /// 1, 2, 1, 2, 1, 2, 3. A hot source (a shared subject, a replay, an already-failed task) gives the
    /// same failure again without any new work: each re-subscription counts as an attempt but reaches
    /// no server. A sequence that ends normally ends the stream; cancellation ends it with
    /// `CancellationError`; a stop throws ``RetryError``.
    public func retrying<Base: AsyncSequence, Random: UniformSource>(
        using random: Random,
        classify: @escaping (any Error) -> RetryClassification = { _ in .transient },
        onEvent: ((RetryEvent) -> Void)? = nil,
        subscribe: @escaping () -> Base
    ) -> RetryingSequence<Base, C, Random> {
        RetryingSequence(retrier: self, random: random, classify: classify, onEvent: onEvent, subscribe: subscribe)
    }
}

/// The sequence of ``Retrier/retrying(using:classify:onEvent:subscribe:)``.
public struct RetryingSequence<Base: AsyncSequence, C: Clock, Random: UniformSource>: AsyncSequence
where C.Duration == Duration {
    public typealias Element = Base.Element

    let retrier: Retrier<C>
    let random: Random
    let classify: (any Error) -> RetryClassification
    let onEvent: ((RetryEvent) -> Void)?
    let subscribe: () -> Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self, random: random)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let sequence: RetryingSequence
        var random: Random
        var steps: RetrySteps<C>?
        var current: Base.AsyncIterator?
        var done = false

        init(sequence: RetryingSequence, random: Random) {
            self.sequence = sequence
            self.random = random
        }

        public mutating func next() async throws -> Element? {
            guard !done else { return nil }
            if steps == nil { steps = RetrySteps(retrier: sequence.retrier) }
            while true {
                try Task.checkCancellation()
                if current == nil {
                    if let refusal = steps!.admit(using: &random) {
                        finish()
                        sequence.onEvent?(
                            .stopped(attempt: steps?.attempt ?? 0, reason: .rejectedLocally, error: refusal.lastError))
                        throw refusal
                    }
                    current = sequence.subscribe().makeAsyncIterator()
                }
                let error: any Error
                do {
                    if let element = try await current!.next() { return element }
                    steps!.succeeded()
                    sequence.onEvent?(.succeeded(attempt: steps!.attempt))
                    finish()
                    return nil
                } catch let cancelled as CancellationError {
                    finish()
                    throw cancelled
                } catch let failure {
                    error = failure
                }
                current = nil
                switch steps!.decide(
                    after: error, classify: sequence.classify, using: &random, onEvent: sequence.onEvent)
                {
                case .stop(let stop):
                    finish()
                    throw stop
                case .retry(let wait):
                    let clock = sequence.retrier.clock
                    do {
                        try await clock.sleep(until: clock.now.advanced(by: wait), tolerance: nil)
                    } catch {
                        finish()
                        throw CancellationError()
                    }
                }
            }
        }

        private mutating func finish() {
            steps?.finish()
            done = true
        }
    }
}
