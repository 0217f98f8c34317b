import Parallelism
import Synchronization
import Testing

@Suite struct ParallelWorkTests {
    @Test func resultsComeBackInItemOrder() throws {
        for jobs in [1, 2, 4] {
            let squares = try ParallelWork.map(100, jobs: jobs) { $0 * $0 }
            #expect(squares == (0..<100).map { $0 * $0 }, "jobs \(jobs)")
        }
    }

    struct Failure: Error, Equatable { let index: Int }

    @Test func theLowestFailingItemsErrorIsRethrown() {
        #expect(throws: Failure(index: 3)) {
            _ = try ParallelWork.map(50, jobs: 3) { index in
                if index == 3 || index == 40 { throw Failure(index: index) }
                return index
            }
        }
    }

    @Test func everyItemRunsOnce() throws {
        let runs = Mutex([Int](repeating: 0, count: 200))
        _ = try ParallelWork.map(200, jobs: 4) { index in runs.withLock { $0[index] += 1 } }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 200))
    }
}
