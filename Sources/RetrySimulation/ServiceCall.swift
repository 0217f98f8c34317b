import BackoffPolicies

/// One request a service layer is serving (see ``ServiceStack``): it came from a caller (a client,
/// or the layer above) and is retried under the layer's policy against the layer below.
struct ServiceCall {
    /// The call's attempts and waits: a session of one request.
    var retries: SimulatedClient
    /// When the call's work is cancelled (deadline propagation), nanoseconds; `Int64.max` otherwise.
    var deadline: Int64
    /// The caller's attempt that this call answers: the client's attempt number (a top layer's
    /// call), or the tag of the parent call's attempt.
    var callerAttempt: Int64
    /// When the call opened, nanoseconds, and its layer's calls in flight then, itself included
    /// (its layer's behaviours hear both when the call ends; 0 in a layer without behaviours).
    var openedAt: Int64
    var inFlightAtOpen: Int32
    /// Unique among the run's calls and attempts (modulo 2^32): the call's own number, and the tag
    /// of its attempt in flight, so a stale event or a late answer is recognised.
    var id: UInt32
    var attempt: UInt32 = 0
    /// The caller: a client's index (a top layer's call), or the parent call's slot.
    var caller: Int32
    /// The client whose request the call serves, at whatever depth (its server attempts are that
    /// session's; a parent's slot may be reused while an orphaned call goes on).
    var session: Int32
    /// The layer serving it, from 0 at the top.
    var layer: Int16
    /// Whether the caller's attempt was already a retry somewhere above: then every attempt this
    /// call makes is retry traffic at the server.
    var callerRetrying: Bool
    /// The request meets a permanent error (the client's request does).
    var isPermanent: Bool
    /// The call is in progress (the slot holds it), and it waits for its attempt `attempt`.
    var isLive = true
    var isAwaiting = false

    /// Whether the call waits for its attempt tagged `tag` (compared modulo 2^32, as events carry it).
    func awaits(_ tag: Int64) -> Bool { isLive && isAwaiting && attempt == UInt32(truncatingIfNeeded: tag) }

    /// Whether the attempt in flight is retry traffic: a retry here, or serving a retry above.
    var isRetry: Bool { callerRetrying || retries.backoff.attempts > 1 }
}
