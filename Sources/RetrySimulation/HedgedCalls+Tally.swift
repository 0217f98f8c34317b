import Stochastics

/// A hedged request's end, and the run's tally of them.
extension HedgedCalls {
    func countWithdrawal() { state.pointee.withdrawn += 1 }

    /// A copy's busy time, in nanoseconds, joins the workers' total.
    func addWork(_ busy: UInt64) { state.pointee.work.add(low: busy) }

    /// A call answered with no copy left in flight is over: its work and copies join the tally,
    /// and its slot is freed.
    func releaseIfDone(_ c: Int) {
        guard calls[c].machine.isFinished && calls[c].id != 0 else { return }
        let seconds = calls[c].work.value / 1e9
        let sent = Double(calls[c].machine.sent)
        state.pointee.workSquares += seconds * seconds
        state.pointee.copySquares += sent * sent
        state.pointee.batches?.callReleased(copies: sent, work: seconds)
        calls[c].id = 0  // no timer or pending send matches a released call
        freeCalls.append(Int32(c))
    }

    /// The run's tally.
    var tally: HedgeTally {
        let state = state.pointee
        return HedgeTally(
            requests: state.requests, copies: state.copiesSent, faultyCopies: state.hosts.faultyCopies,
            triedHosts: state.hosts.predicate == nil ? nil : state.hosts.tally,
            ejections: state.hosts.detection == nil
                ? nil
                : HedgeTally.Ejections(
                    count: state.hosts.ejections, seconds: state.hosts.ejectedNanoseconds.value / 1e9),
            hosts: state.hosts.loads,
            withdrawn: state.withdrawn, refused: state.refused,
            work: state.work.value / 1e9, workSquares: state.workSquares, copySquares: state.copySquares,
            responseTimes: state.responses, batches: state.batches)
    }
}
