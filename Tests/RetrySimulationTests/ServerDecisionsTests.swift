import BackoffPolicies
import EventSimulation
import Stochastics
import Testing

@testable import RetrySimulation

/// A server says what it decided and never touches the driver, so it can be run alone against a
/// recorder of its decisions.
@Suite struct ServerDecisionsTests {
    /// Every decision, in order, as text.
    struct Recorder: DriverDecisions {
        var now = VirtualTime(nanoseconds: 1_000)
        let streams = ClientStreams(count: 4, root: 7)
        var awaiting: Set<Int> = [0, 1, 2, 3]
        var log: [String] = []
        /// The value of each event scheduled, in order.
        var scheduledValues: [Int64] = []

        func random(for client: Int) -> ClientRandom { ClientRandom(streams: streams, client: client) }
        func normal(for client: Int, mean: Double, standardDeviation: Double) -> Double {
            streams.normal(client, mean: mean, standardDeviation: standardDeviation)
        }
        func exponential(for client: Int, mean: Double) -> Double { streams.exponential(client, mean: mean) }
        func lognormal(for client: Int, mu: Double, sigma: Double) -> Double {
            streams.lognormal(client, mu: mu, sigma: sigma)
        }
        func isAwaiting(_ client: Int, attempt: Int64) -> Bool { awaiting.contains(client) }
        func isPermanent(_ client: Int) -> Bool { false }
        func isRetrying(_ client: Int) -> Bool { false }
        static var mayCancelWork: Bool { false }
        func takeCancellation(_ client: Int, attempt: Int64) -> Bool { false }
        func isWithdrawn(_ client: Int, attempt: Int64) -> Bool { false }
        func requestStart(of client: Int) -> VirtualTime { .zero }

        mutating func counted(_ client: Int, isRetry: Bool, answeredAtOnce outcome: AttemptOutcome?) {
            log.append("counted \(outcome.map { "\($0)" } ?? "-")")
        }
        mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?) {
            log.append("answer \(client) \(answer)")
        }
        mutating func reject(_ client: Int, retryAfter: Int64?) { log.append("reject \(client) \(retryAfter ?? -1)") }
        mutating func recordAnswer(_ outcome: AttemptOutcome) { log.append("recorded \(outcome)") }
        mutating func recordRejection() { log.append("recorded rejection") }
        mutating func queued(length: Int) { log.append("queued \(length)") }
        mutating func serviceStarted(_ client: Int, attempt: Int64) {}
        mutating func wasted(_ client: Int, attempt: Int64) { log.append("wasted") }
        mutating func dropped(_ client: Int, attempt: Int64) { log.append("dropped \(client)") }
        mutating func copySent(for client: Int) { log.append("copy \(client)") }
        mutating func grantsHedge(for client: Int) -> Bool {
            log.append("hedge \(client)")
            return true
        }
        mutating func copyFailed(for client: Int) { log.append("copy failed \(client)") }
        mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64) {
            log.append("schedule \(number) \(client) after \(delay)")
            scheduledValues.append(value)
        }
        mutating func armTimeout(_ client: Int, attempt: Int64) { log.append("timeout \(client)") }
        mutating func answer(_ client: Int, _ answer: ClientAnswer, at time: VirtualTime) -> VirtualTime? {
            log.append("answer \(client) \(answer) at \(time.nanoseconds)")
            return nil
        }
        mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime) {
            log.append("schedule \(number) \(client) at \(time.nanoseconds)")
            scheduledValues.append(value)
        }
    }

    /// One worker of fixed 5 µs services and one queue place: the first attempt is served, the
    /// second waits, the third is refused with the server's delay; when the first is done it is
    /// answered and the queued one starts; a finished attempt whose client stopped waiting is wasted.
    @Test func theCapacityServerServesQueuesAndRefuses() {
        var server = CapacityServer(
            .capacity(
                CapacityModel(
                    workers: 1, serviceTime: .deterministic(.microseconds(5)), queueLimit: 1,
                    rejectionRetryAfter: .milliseconds(1))))
        var decisions = Recorder()
        for client in 0..<3 { server.receive(client: client, attempt: 1, isRetry: false, &decisions) }
        #expect(
            decisions.log == [
                "counted -", "schedule 0 0 after 5000", "timeout 0",
                "counted -", "queued 1", "timeout 1",
                "counted -", "reject 2 1000000",
            ])
        decisions.log = []
        decisions.awaiting = [1]
        server.handle(ScenarioEvent(kind: .server(0), client: 0, value: 1), number: 0, &decisions)
        server.handle(ScenarioEvent(kind: .server(0), client: 1, value: 1), number: 0, &decisions)
        #expect(decisions.log == ["wasted", "queued 0", "schedule 0 1 after 5000", "answer 1 success"])
    }

    /// A server that drops expired work: of two queued attempts, the one whose client stopped
    /// waiting is dropped when a worker frees, and the next one still waited for starts at once.
    @Test func aServerThatDropsExpiredWorkSkipsItInTheQueue() {
        var server = CapacityServer(
            .capacity(
                CapacityModel(
                    workers: 1, serviceTime: .deterministic(.microseconds(5)), queueLimit: 2, dropsExpired: true)))
        var decisions = Recorder()
        for client in 0..<3 { server.receive(client: client, attempt: 1, isRetry: false, &decisions) }
        decisions.log = []
        decisions.awaiting = [0, 2]
        server.handle(ScenarioEvent(kind: .server(0), client: 0, value: 1), number: 0, &decisions)
        #expect(
            decisions.log == [
                "answer 0 success", "queued 1", "dropped 1", "queued 0", "schedule 0 2 after 5000",
            ])
    }

    /// An outage answers at once, and counts the attempt answered.
    @Test func theInstantServerAnswersAtOnce() {
        let server = InstantServer(.outage(until: VirtualTime(nanoseconds: 2_000), retryAfter: nil))
        var decisions = Recorder()
        server.receive(client: 0, attempt: 1, isRetry: false, &decisions)
        decisions.now = VirtualTime(nanoseconds: 2_000)
        server.receive(client: 0, attempt: 2, isRetry: true, &decisions)
        #expect(
            decisions.log == [
                "counted failure", "answer 0 failure(serverDelay: nil)", "counted success", "answer 0 success",
            ])
    }

    /// A server made of others numbers its own events first and those inside it after them: a
    /// stack (7 events: 4 of its calls, 3 of its layers' hedges) over a hedge (2) over a capacity
    /// server (2: a service's end, and a fail-fast host's failure) schedules its replica's
    /// service as event 9 and its hedge's timer as event 7, and each goes back to its owner: the
    /// replica's service ends and answers the hedge's copy, which answers the layer's call, which
    /// answers the client.
    @Test func aCompositeNumbersItsInnerServersEventsAfterItsOwn() throws {
        #expect(InstantServer.eventKinds == 0 && CapacityServer.eventKinds == 2)
        #expect(HedgedReplicas<CapacityServer>.eventKinds == 4 && ServiceStack<CapacityServer>.eventKinds == 9)
        typealias Stack = ServiceStack<HedgedReplicas<CapacityServer>>
        #expect(Stack.eventKinds == 11 && Stack.eventKinds <= ScenarioEvent.serverKinds)
        let scenario = try LayerHedgeTests.stack(
            service: .deterministic(.microseconds(5)),
            bottom: try LayerHedgeTests.layer(hedge: try Hedging(delay: .microseconds(3), copies: 2)))
        var stack = Stack(scenario: scenario, seed: 1)
        var decisions = Recorder()
        stack.receive(client: 0, attempt: 1, isRetry: false, &decisions)
        // The hedge's timer (its event 0), then the copy's service (the replica's event 0, the hedge's 2).
        #expect(decisions.log == ["timeout 0", "schedule 7 0 after 3000", "counted -", "schedule 9 0 after 5000"])
        let copy = decisions.scheduledValues[1]
        decisions.log = []
        decisions.now = VirtualTime(nanoseconds: 5_000)
        stack.handle(ScenarioEvent(kind: .server(9), client: 0, value: copy), number: 9, &decisions)
        #expect(decisions.log == ["recorded success", "answer 0 success"])
    }
}
