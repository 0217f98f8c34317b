/// Progress of a sweep on stderr: points done of total, rate, time left. On a terminal it rewrites
/// one line; otherwise it prints a line at most once a second. Wall-clock time is used here only,
/// never in results.
struct SweepProgress {
    let total: Int
    let rewritesLine: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastReport: ContinuousClock.Instant?
    private(set) var done = 0

    init(total: Int, rewritesLine: Bool) {
        self.total = total
        self.rewritesLine = rewritesLine
        start = clock.now
    }

    mutating func advance(by count: Int, reportingTo stream: inout some TextOutputStream) {
        done += count
        let now = clock.now
        if !rewritesLine, let lastReport, now - lastReport < .seconds(1), done < total { return }
        lastReport = now
        let seconds = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let line = "sweep: \(done)/\(total) points, \(Self.format(rate)) points/s, \(Self.format(left)) s left"
        stream.write(rewritesLine ? "\r\(line)\u{1B}[K" : line + "\n")
        if rewritesLine && done == total { stream.write("\n") }
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
