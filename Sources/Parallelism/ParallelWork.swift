import Dispatch
import Synchronization

/// Runs independent work items on several threads and returns their results in item order.
///
/// Results never depend on the thread count: each item must draw on its own random stream (seeded
/// from the item, not the thread), and results are placed by index.
public enum ParallelWork {
    /// `body(0) ... body(count - 1)`, at most `jobs` at a time; rethrows the error of the lowest
    /// failing index.
    public static func map<Result: Sendable>(
        _ count: Int, jobs: Int, _ body: @Sendable (Int) throws -> Result
    ) throws -> [Result] {
        precondition(jobs >= 1, "jobs must be at least 1")
        if count == 0 { return [] }
        if jobs == 1 || count == 1 { return try (0..<count).map(body) }
        let next = Atomic<Int>(0)
        let results = Mutex<[Int: Swift.Result<Result, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let result = Swift.Result { try body(index) }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { all in try (0..<count).map { try all[$0]!.get() } }
    }
}
