import BackoffPolicies
import Testing

@testable import RetrySimulation

/// The order in which a shared limiter's waiters get their tokens: botocore's condition variable
/// wakes its longest-waiting waiter at every new fill rate; Java's queue serves its head alone;
/// Go's and Swift's sleepers look on their own.
@Suite struct TokenWaitersTests {
    /// Three waiters in turn; each new fill rate wakes the longest-waiting one, whose timed look is
    /// then stale; woken and still short of a token, it waits again at the back.
    @Test func botocoreWakesTheLongestWaitingAtEveryNewRate() {
        var waiters = TokenWaiters(sdk: .botocore, scope: .shared, clients: 4)
        for client in 1...3 { waiters.looked(client, tookToken: false) }
        let timed = (1...3).map { waiters.generation(of: $0) }
        waiters.rateChanged()
        let first = waiters.drainWakes()
        #expect(first.map(\.client) == [1])
        let stale = waiters.wakesUp(1, generation: timed[0])
        #expect(!stale, "its timed look is stale once it is woken")
        let woken = waiters.wakesUp(1, generation: first[0].generation)
        #expect(woken)
        waiters.looked(1, tookToken: false)  // no token yet: back of the line
        waiters.rateChanged()
        waiters.rateChanged()
        waiters.rateChanged()
        let woken3 = waiters.drainWakes()
        #expect(woken3.map(\.client) == [2, 3, 1])
        waiters.rateChanged()
        let none = waiters.drainWakes()
        #expect(none.isEmpty, "nobody waits any more")
        // A waiter that wakes on its own timer leaves the line: no new rate wakes it.
        waiters.looked(2, tookToken: false)
        let onItsTimer = waiters.wakesUp(2, generation: waiters.generation(of: 2))
        #expect(onItsTimer)
        waiters.rateChanged()
        let noneAfterTimer = waiters.drainWakes()
        #expect(noneAfterTimer.isEmpty)
    }

    /// Java's notifier: the first to find no token is the head and alone looks; the others queue
    /// behind it; when the head takes its token the next is woken at once; a newcomer queues
    /// behind whoever waits.
    @Test func javaServesItsQueueInOrder() {
        var waiters = TokenWaiters(sdk: .javaV2, scope: .shared, clients: 5)
        let firstQueues = waiters.queuesBehind(1)
        #expect(!firstQueues, "nobody waits: the first looks")
        waiters.looked(1, tookToken: false)
        let (second, third) = (waiters.queuesBehind(2), waiters.queuesBehind(3))
        #expect(second && third)
        let headQueues = waiters.queuesBehind(1)
        #expect(!headQueues, "the head looks again on its timer")
        waiters.looked(1, tookToken: true)
        let next = waiters.drainWakes()
        #expect(next.map(\.client) == [2])
        let newcomer = waiters.queuesBehind(4)
        #expect(newcomer, "a newcomer queues behind the waiters")
        let nextWakes = waiters.wakesUp(2, generation: next[0].generation)
        let nextQueues = waiters.queuesBehind(2)
        #expect(nextWakes && !nextQueues)
        waiters.looked(2, tookToken: true)
        let third3 = waiters.drainWakes()
        #expect(third3.map(\.client) == [3])
        waiters.rateChanged()
        let afterRate = waiters.drainWakes()
        #expect(afterRate.isEmpty, "a new fill rate wakes nobody in Java")
    }

    /// Go's and Swift's sleepers, and every limiter of one client: no order to keep.
    @Test(arguments: [
        (RateLimiterSDK.goV2, RateLimiterScope.shared), (.smithySwift, .shared), (.botocore, .perClient),
        (.javaV2, .perClient),
    ])
    func independentSleepersKeepNoOrder(sdk: RateLimiterSDK, scope: RateLimiterScope) {
        var waiters = TokenWaiters(sdk: sdk, scope: scope, clients: 3)
        for client in 0..<3 {
            let queues = waiters.queuesBehind(client)
            #expect(!queues)
            waiters.looked(client, tookToken: false)
        }
        waiters.rateChanged()
        let wakes = waiters.drainWakes()
        let wakesUp = waiters.wakesUp(0, generation: 0)
        #expect(wakes.isEmpty && wakesUp)
    }
}

extension TokenWaiters {
    /// Every wake due now, in order.
    mutating func drainWakes() -> [(client: Int, generation: Int32)] {
        var all: [(client: Int, generation: Int32)] = []
        while let wake = popWake() { all.append(wake) }
        return all
    }
}
