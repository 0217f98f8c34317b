import BackoffPolicies

/// The requests waiting for a shared client-side rate limiter's tokens, served in the order their
/// SDK serves them (``LimitsInForce``'s, one limiter shared by every client):
///
/// ```
/// botocore              each waiter sleeps on a condition variable until its token should be there;
///                       every new fill rate (every answer) wakes the longest-waiting one at once
///                       (CPython's Condition.notify), who looks again and, finding no token, waits
///                       anew at the back; a new request takes a token that is there, waiters or not
/// java-v2               one FIFO queue: its head alone looks, after each whole-millisecond wait; when
///                       it takes its token the next looks at once; a new request queues behind any
///                       waiter
/// go-v2, smithy-swift   each waiter sleeps and looks again on its own: nothing to order
/// ```
/// A waiter's wake-up event carries its generation: a wake-up that is not its latest is stale.
struct TokenWaiters {
    enum Order {
        case independent, notifyLongestWaiting, firstInFirstOut
    }

    let order: Order
    /// Per client (ordered SDKs only): the generation of its latest wait.
    private var generations: [Int32]
    /// The waiters in the order they are served; an entry whose generation is not its client's
    /// latest has left.
    private var queue = RingBuffer<(client: Int32, generation: Int32)>()
    /// java-v2: the client at the head of the queue, the one that looks.
    private var head: Int?
    /// Waiters to wake now: each looks again at once.
    private var wakes: [(client: Int, generation: Int32)] = []

    init(sdk: RateLimiterSDK, scope: RateLimiterScope, clients: Int) {
        switch (sdk, scope) {
        case (.botocore, .shared): order = .notifyLongestWaiting
        case (.javaV2, .shared): order = .firstInFirstOut
        default: order = .independent
        }
        generations = [Int32](repeating: 0, count: order == .independent ? 0 : clients)
    }

    /// The generation `client`'s wake-up event carries.
    func generation(of client: Int) -> Int32 { generations.isEmpty ? 0 : generations[client] }

    /// Whether a wake-up of `client` of `generation` is its latest; if so it leaves the waiters.
    mutating func wakesUp(_ client: Int, generation: Int32) -> Bool {
        guard !generations.isEmpty else { return true }
        guard generations[client] == generation else { return false }
        if order == .notifyLongestWaiting { generations[client] &+= 1 }  // off the condition's list
        return true
    }

    /// java-v2: whether `client` must queue behind another waiter instead of looking; if so it is
    /// queued, to be woken when its turn comes.
    mutating func queuesBehind(_ client: Int) -> Bool {
        guard order == .firstInFirstOut, let head, head != client else { return false }
        generations[client] &+= 1
        queue.append((Int32(client), generations[client]))
        return true
    }

    /// `client` looked for a token and took one or not.
    mutating func looked(_ client: Int, tookToken: Bool) {
        switch order {
        case .independent:
            return
        case .notifyLongestWaiting:
            guard !tookToken else { return }
            generations[client] &+= 1
            queue.append((Int32(client), generations[client]))
        case .firstInFirstOut:
            if !tookToken {
                head = client
                generations[client] &+= 1  // its wait's wake-up
            } else if head == client {
                head = nil
                if let next = popLatest() { wake(next) }
            }
        }
    }

    /// The limiter's fill rate was set anew: botocore wakes its longest-waiting waiter.
    mutating func rateChanged() {
        guard order == .notifyLongestWaiting, let next = popLatest() else { return }
        wake(next)
    }

    /// The next wake to carry out now, handed over once; `nil` when there is none.
    @inline(__always)
    mutating func popWake() -> (client: Int, generation: Int32)? {
        wakes.isEmpty ? nil : wakes.removeFirst()
    }

    private mutating func wake(_ client: Int) {
        generations[client] &+= 1
        if order == .firstInFirstOut { head = client }
        wakes.append((client, generations[client]))
    }

    /// The first queued waiter that has not left.
    private mutating func popLatest() -> Int? {
        while let entry = queue.popFirst() {
            if generations[Int(entry.client)] == entry.generation { return Int(entry.client) }
        }
        return nil
    }
}
