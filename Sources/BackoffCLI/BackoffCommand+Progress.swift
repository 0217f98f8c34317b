import Dispatch
import RetrySimulation
import Synchronization

extension BackoffCommand {
    /// ``run(progress:)`` on another thread while this one reports on `standardError` how many of
    /// the simulated clients have ended (``ProgressLine``): a rewritten line on a terminal
    /// (`rewritesLine`), from the first second on; otherwise a line a second. `always` (`--progress`)
    /// also writes the last line of a run that took less than a second. Nothing else changes: the
    /// table, its errors and stdout are those of ``run()``.
    func run(
        reportingTo standardError: inout some TextOutputStream, rewritesLine: Bool, always: Bool
    ) throws(CommandLineError) -> CSVTable {
        let progress = RunProgress()
        // Poisson arrivals draw their number: the mean stands for it until the run passes it.
        let expected = simulatedScenarios.reduce(0.0) { $0 + $1.meanSessions * Double($1.replications) }
        var line = ProgressLine(
            label: Self.name, unit: "clients", total: Int(min(expected, 1e18)), rewritesLine: rewritesLine,
            silentFor: always ? .zero : .seconds(1))
        let outcome = Mutex<Result<CSVTable, CommandLineError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let command = self
        DispatchQueue.global().async {
            let result = Result { () throws(CommandLineError) in try command.run(progress: progress) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        let interval: DispatchTimeInterval = rewritesLine ? .milliseconds(200) : .seconds(1)
        while finished.wait(timeout: .now() + interval) == .timedOut {
            // Once every client is done, the last line waits for the report.
            let done = progress.sessionsEnded
            if done < line.total { line.update(done: done, to: &standardError) }
        }
        let result = outcome.withLock { $0! }
        switch result {
        case .success where always || line.hasReported:
            line.finish(done: progress.sessionsEnded, to: &standardError)
        case .failure where rewritesLine && line.hasReported:
            standardError.write("\n")  // the error's message on a line of its own
        default:
            break
        }
        return try result.get()
    }
}
