import BackoffPolicies

/// One attempt of a layer above the bottom of a ``ServiceStack``, hedged (`--layer
/// NAME,hedge-delay=...`), or of a client above the top layer (`--hedge` with layers): its copies
/// are calls of the layer below, and ``HedgedCallMachine`` decides when the next one goes and
/// which answer is the attempt's.
///
/// A copy's call names the hedge as its caller (``ServiceCall/caller``, the hedge's index in
/// ``LayerHedges``), and its ``ServiceCall/callerAttempt`` packs the hedge's id and the copy's
/// number (``copyTag(id:copy:)``), so the answer of a copy whose hedge is gone is recognised.
struct LayerHedge {
    var machine: HedgedCallMachine
    /// The slot of each copy's call, by copy number from 1 (index 0): ``pending`` while its call
    /// opens, ``ended`` once it answered or was cancelled.
    var copies: [Int32] = []
    /// Envoy's rule's retry backoff and its draws so far (one before each next copy); `nil` under
    /// the others.
    var backoff: (policy: BackoffPolicy, state: BackoffState)?
    /// The hedging layer (-1: the clients), the hedging call's slot (the client's index), the tag
    /// of its attempt this hedge is (the client's attempt number), and the client it serves.
    let layer: Int16
    let owner: Int32
    let ownerAttempt: Int64
    let session: Int32
    /// The deadline each copy carries, whether the attempt was retry traffic already, and whether
    /// the request meets a permanent error.
    let deadline: Int64
    let ownerRetrying: Bool
    let isPermanent: Bool
    let id: UInt32
    /// When the armed timer is due, nanoseconds (-1: none): a timer event due at another time is stale.
    var timerDue: Int64 = -1
    var isLive = true

    static let pending: Int32 = -2
    static let ended: Int32 = -1

    /// The caller attempt a copy's call carries: the hedge's id, then the copy's number (at most
    /// ``Hedging/maximumCopies``, 7 bits).
    static func copyTag(id: UInt32, copy: Int) -> Int64 { Int64(id) << 7 | Int64(copy) }

    /// The hedge id and copy number a copy's call carries.
    static func split(_ tag: Int64) -> (id: UInt32, copy: Int) {
        (UInt32(truncatingIfNeeded: tag >> 7), Int(tag & 0x7F))
    }

    /// Whether copy `copy` (from 1) is still a live call of this hedge.
    func holds(copy: Int) -> Bool { isLive && copy >= 1 && copy <= copies.count && copies[copy - 1] != Self.ended }
}

/// The hedged attempts of a stack's layers in progress, in slots reused once a hedge is over.
struct LayerHedges {
    private(set) var entries: [LayerHedge] = []
    private var free: [Int32] = []

    subscript(index: Int32) -> LayerHedge {
        get { entries[Int(index)] }
        _modify { yield &entries[Int(index)] }
    }

    /// Whether `index` holds a live hedge, and whether it is the one numbered `id`.
    func isLive(_ index: Int32) -> Bool { index >= 0 && Int(index) < entries.count && entries[Int(index)].isLive }

    func isCurrent(_ index: Int32, id: UInt32) -> Bool { isLive(index) && entries[Int(index)].id == id }

    /// Stores a new hedge: its index.
    mutating func add(_ hedge: LayerHedge) -> Int32 {
        if let index = free.popLast() {
            entries[Int(index)] = hedge
            return index
        }
        entries.append(hedge)
        return Int32(entries.count - 1)
    }

    /// The hedge at `index` is over once answered with no copy in flight: its slot is free.
    mutating func releaseIfFinished(_ index: Int32) {
        guard entries[Int(index)].isLive, entries[Int(index)].machine.isFinished else { return }
        entries[Int(index)].isLive = false
        entries[Int(index)].copies = []
        free.append(index)
    }
}
