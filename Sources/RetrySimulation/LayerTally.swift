/// What one service layer of a stack did in a run (`simulate --layer-report`).
public struct LayerTally: Hashable, Sendable {
    /// Requests the layer received from its caller (the clients or the layer above).
    public var requests = 0
    /// Attempts it sent to the layer below (or the server): its requests' first attempts and retries.
    public var attempts = 0
    /// Requests it answered with a success, a permanent error, or a failure after its retries.
    public var successes = 0
    public var permanentFailures = 0
    public var giveUps = 0
    /// Its attempts it stopped waiting for at its per-try timeout.
    public var timeouts = 0
    /// Requests it refused at once, holding `concurrency` requests already.
    public var rejections = 0
    /// Requests cancelled when their deadline passed (`--deadline-propagation`).
    public var deadlineExceeded = 0
    /// Copies after the first that its hedge sent (`hedge-...` keys): calls of the layer below
    /// above the bottom, copies to the replicas at the bottom.
    public var hedgeCopies = 0
    /// Requests cancelled by a hedge above, whose answer nobody waited for any more.
    public var cancelled = 0

    public init() {}
}
