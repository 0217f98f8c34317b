import BackoffPolicies

/// What `HedgedCalls` keeps in its slots: a hedged call, a copy of it at one replica, and what the
/// server carries out once the replica it called returns.
extension HedgedCalls {
    /// A client's attempt, hedged.
    struct Call {
        var client: Int32
        var clientAttempt: Int64
        /// When it reached the replicas, and when its timer is due (-1: not armed).
        var start: Int64, timerDue: Int64
        var id: Int32
        var isPermanent: Bool, isRetry: Bool
        /// Whether its attempt was cancelled above (``ReplicaDecisions/takeCancellation(_:attempt:)``):
        /// its copies still queued leave unserved.
        var isCancelled = false
        /// What the call decides as its copies go and end (gRPC A6, Finagle's or Envoy's rule).
        var machine: HedgedCallMachine
        /// The workers' busy time for its copies so far, in nanoseconds (up to 64 copies of up to
        /// virtual time's horizon each: past 64 bits).
        var work: WideSum
        /// With a per-try timeout: the retry backoff's state (its draws so far).
        var backoff: BackoffState?
    }

    /// One copy of a call at one replica.
    struct Copy {
        var call: Int32, replica: Int32, tag: Int32
        /// Its number among its call's copies, from 1.
        var number: Int32
        /// When it was sent.
        var sent: Int64
        /// When its service started, -1 while it waits in a queue.
        var serviceStart: Int64
        var isLive: Bool
    }

    /// What the server carries out once the replica it called returns.
    enum Pending {
        /// The call (by slot and id), granted its next copy, sends it if it still wants one.
        case send(call: Int32, id: Int32)
        /// The call's timer fires now (a delay of zero before its next copy).
        case fire(call: Int32, id: Int32)
        /// The copy (by slot and tag) is withdrawn from its replica.
        case withdraw(copy: Int32, tag: Int32)
        /// The call, granted its next copy, draws its retry backoff and sends the copy after it
        /// (Envoy's rule after a failure).
        case backoff(call: Int32, id: Int32)
    }
}
