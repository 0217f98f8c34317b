/// Where a replica set tracks its hosts (``HostTracking``): faulty hosts, the previous-hosts
/// predicate and outlier ejection, out of the hedge's hot path.
extension HedgedCalls {
    /// The replica of the call's next copy where hosts are tracked (``HostTracking``): a retry's
    /// first copy under the predicate; while hosts are ejected, none of them (and none the call's
    /// copies used while enough hosts are left for both); else as any copy. The copy is then
    /// counted at a faulty host, and joins the hosts its request tried. Out of line, so that a
    /// replica set without tracking pays one branch.
    @inline(never)
    func pickTrackingHosts(_ c: Int, sent: Int, now: Int64, uniform: () -> Double) -> Int {
        let (client, isRetry) = (calls[c].client, calls[c].isRetry)
        let base = c * hedging.copies
        let used = (0..<sent).map { Int(copies[Int(callCopies[base + $0])].replica) }
        let ejecting = withHosts { hosts, _, _ in hosts.returnEjected(now: now) }
        var replica = -1
        if sent == 0 && isRetry {
            replica = withHosts { hosts, balancer, _ in hosts.pickRetry(of: client, &balancer, uniform: uniform) }
        }
        if replica < 0 {
            replica = withHosts { hosts, balancer, _ in
                let avoidsUsed = sent + (ejecting ? hosts.ejectedNow : 0) < replicas
                return balancer.pick(avoids: ejecting || avoidsUsed, uniform: uniform) { replica in
                    (ejecting && hosts.isEjected(replica)) || (avoidsUsed && used.contains(replica))
                }
            }
        }
        withHosts { hosts, _, batches in
            hosts.copySent(to: replica, by: client, startsRequest: sent == 0 && !isRetry, batches: &batches)
        }
        return replica
    }

    /// A copy at `replica` was answered: the host's load and the outlier detector count a failure
    /// or a success.
    @inline(never)
    func hostAnswered(_ replica: Int, _ answer: ClientAnswer, now: Int64) {
        withHosts { hosts, _, _ in
            hosts.countAnswer(at: replica, answer)
            guard hosts.detection != nil else { return }
            switch answer {
            case .success: hosts.answered(at: replica, failed: false, now: now)
            case .failure: hosts.answered(at: replica, failed: true, now: now)
            case .permanentError, .timeout, .rejectedLocally, .deadlineExceeded: break
            }
        }
    }

    /// A copy's service at `replica` ended after `busy` nanoseconds: the host's load counts it.
    @inline(never)
    func hostWorked(_ replica: Int, _ busy: UInt64) {
        withHosts { hosts, _, _ in hosts.countWork(at: replica, busy) }
    }
}
