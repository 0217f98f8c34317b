import RetrySimulation

/// Progress on stderr: done of total, rate, time left, e.g.
/// `simulate: 3,145,728/10,000,000 clients, 2,900,000 clients/s, 2.4 s left`. On a terminal it
/// rewrites one line; otherwise it prints a line at most once a second. Wall-clock time is used
/// here only, never in results; every instant is a parameter, so tests give their own.
struct ProgressLine {
    /// `--progress`, for a command whose progress shows on a terminal by itself.
    static let option = Option<Bool>.flag(
        "progress", help: "Report progress on stderr even when stderr is not a terminal."
    ).grouped(.output)

    /// What is in progress (`sweep`, `simulate`).
    let label: String
    /// What is counted (`points`, `clients`).
    let unit: String
    /// The count expected at the end; a count past it (Poisson arrivals draw their number) raises it.
    private(set) var total: Int
    let rewritesLine: Bool
    /// How long a run goes before its first line: a short run on a terminal says nothing.
    let silentFor: Duration
    private let start: ContinuousClock.Instant
    private var lastReport: ContinuousClock.Instant?

    init(
        label: String, unit: String, total: Int, rewritesLine: Bool, silentFor: Duration = .zero,
        start: ContinuousClock.Instant = ContinuousClock.now
    ) {
        (self.label, self.unit, self.total, self.rewritesLine) = (label, unit, max(0, total), rewritesLine)
        self.silentFor = silentFor
        self.start = start
    }

    /// Whether a line has been written.
    var hasReported: Bool { lastReport != nil }

    /// Reports `done` at `now`, if a line is due: on a terminal each time after `silentFor`,
    /// otherwise at most once a second, and always when `done` reaches the total.
    mutating func update(
        done: Int, at now: ContinuousClock.Instant = ContinuousClock.now, to stream: inout some TextOutputStream
    ) {
        total = max(total, done)
        guard now - start >= silentFor || (done == total && hasReported) else { return }
        if !rewritesLine, let lastReport, now - lastReport < .seconds(1), done < total { return }
        write(done: done, at: now, to: &stream)
    }

    /// The last line, with the time taken, whether or not one is due; `done` is the total now
    /// (a run's count is known at its end). On a terminal it ends the rewritten line.
    mutating func finish(
        done: Int, at now: ContinuousClock.Instant = ContinuousClock.now, to stream: inout some TextOutputStream
    ) {
        total = done
        let line = "\(label): \(Self.count(done))/\(Self.count(total)) \(unit) in \(Self.format(seconds(now))) s"
        stream.write(rewritesLine ? "\r\(line)\u{1B}[K\n" : line + "\n")
        lastReport = now
    }

    private mutating func write(done: Int, at now: ContinuousClock.Instant, to stream: inout some TextOutputStream) {
        lastReport = now
        let elapsed = seconds(now)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let pace =
            rate > 0
            ? "\(Self.format(rate)) \(unit)/s, \(Self.format(left)) s left" : "none yet after \(Self.format(elapsed)) s"
        let line = "\(label): \(Self.count(done))/\(Self.count(total)) \(unit), \(pace)"
        stream.write(rewritesLine ? "\r\(line)\u{1B}[K" : line + "\n")
        if rewritesLine && done == total { stream.write("\n") }
    }

    private func seconds(_ now: ContinuousClock.Instant) -> Double {
        let elapsed = (now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// A count with thousands grouped: `3,145,728`.
    private static func count(_ value: Int) -> String { MemoryEstimate.count(Double(value)) }

    /// A rate or a time: whole from 100 up (grouped), one decimal below.
    static func format(_ value: Double) -> String {
        value >= 100 ? MemoryEstimate.count(value) : String((value * 10).rounded() / 10)
    }
}
