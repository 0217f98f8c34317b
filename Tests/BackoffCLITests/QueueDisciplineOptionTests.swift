import Testing

@testable import BackoffCLI

/// `--queue-discipline`: the capacity server's queue order and shedding, read by its codec,
/// refused with the accepted form when malformed, and named where it cannot act.
@Suite struct QueueDisciplineOptionTests {
    static let overloaded =
        "simulate --server capacity --workers 1 --service exp:10ms --timeout 50ms --queue 500 "
        + "--arrivals poisson:150 --duration 5s --max-attempts 4 --jitter full --replications 2"

    @Test func fifoIsTheDefaultAndTheOthersChangeTheRun() throws {
        let plain = Invocation(Self.overloaded)
        let fifo = Invocation(Self.overloaded + " --queue-discipline fifo")
        #expect(plain.status == 0 && fifo.stdout == plain.stdout, "\(fifo.stderr)")
        for discipline in ["lifo", "adaptive-lifo:interval=10ms"] {
            let run = Invocation(Self.overloaded + " --queue-discipline " + discipline)
            #expect(run.status == 0 && run.stderr.isEmpty && run.stdout != plain.stdout, "\(discipline): \(run.stderr)")
        }
        // CoDel sheds what has waited too long instead of serving it after its caller left: far
        // less wasted work than FIFO's, and more requests answered.
        let codel = Invocation(Self.overloaded + " --queue-discipline codel:target=5ms:interval=20ms")
        #expect(codel.status == 0, "\(codel.stderr)")
        let wasted = try #require(codel.field("wasted_work").flatMap(Int.init))
        let fifoWasted = try #require(plain.field("wasted_work").flatMap(Int.init))
        let answered = try #require(codel.field("successes").flatMap(Int.init))
        let fifoAnswered = try #require(plain.field("successes").flatMap(Int.init))
        #expect(
            wasted * 10 < fifoWasted && answered > fifoAnswered,
            "codel: \(wasted), \(answered); fifo: \(fifoWasted), \(fifoAnswered)")
    }

    @Test(arguments: [
        ("", "unknown kind ''"), ("FIFO", "unknown kind 'FIFO'"), ("lifo:interval=1ms", "'lifo' takes no parameters"),
        ("codel:target=0", "'target=0'"), ("codel:target=-1ms", "'target=-1ms'"),
        ("codel:interval=nan", "'interval=nan'"),
        ("codel:target=200ms", "'target=200ms' is longer than the default interval 100ms"),
        ("codel:interval=1ms", "the default target 5ms is longer than 'interval=1ms'"),
        ("adaptive-lifo:interval=0.1ns", "'interval=0.1ns'"), ("codel:target=1ms:target=2ms", "given twice"),
        ("adaptive-lifo:interval=99999999999999h", "at most 2^62 ns"), ("codel:", "not a KEY=VALUE parameter"),
    ])
    func malformedDisciplinesAreRefusedWithTheForm(value: String, reason: String) {
        let result = Invocation(["simulate", "--server", "capacity", "--clients", "10", "--queue-discipline", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(result.stderr.contains("'--queue-discipline <discipline>'"), "\(result.stderr)")
        #expect(result.stderr.contains(reason) && result.stderr.contains(QueueDisciplineSpec.form), "\(result.stderr)")
    }

    @Test func elsewhereItIsNamedAsIgnored() {
        let outage = Invocation("simulate --server outage:1s --queue-discipline lifo --clients 10 --jitter full")
        #expect(outage.status == 0, "\(outage.stderr)")
        #expect(outage.stderr.contains("'--queue-discipline' does not apply to the outage server"), "\(outage.stderr)")
    }
}
