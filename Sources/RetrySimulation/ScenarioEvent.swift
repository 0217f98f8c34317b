/// One event of a scenario run: 8 bytes (the kind and the client packed in 32 bits, a 32-bit
/// value), so a heap entry is 24 bytes and a million pending events stay compact.
struct ScenarioEvent {
    enum Kind: UInt32 {
        /// The client starts an attempt (the first of a request, or a retry).
        case send
        /// Contention: a read arrives at the server; the write (carrying the version read, in
        /// `value`) arrives. The replies need no events of their own (see `ScenarioRun.handle`).
        case readAtServer, writeAtServer
        /// Capacity: a worker finishes the attempt numbered `value` of the client.
        case serviceDone
        /// The client stops waiting for its attempt numbered `value`.
        case timeout
    }

    /// The most clients a run may hold: the client index takes the low 28 bits.
    static let maximumClients = 1 << 28

    private let packed: UInt32
    /// A version (contention), a success flag, or an attempt number (capacity), truncated to 32 bits.
    let value: Int32

    init(kind: Kind, client: Int, value: Int64) {
        packed = kind.rawValue << 28 | UInt32(client)
        self.value = Int32(truncatingIfNeeded: value)
    }

    var kind: Kind { Kind(rawValue: packed >> 28)! }
    var client: Int { Int(packed & 0x0FFF_FFFF) }
}
