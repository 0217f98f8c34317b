/// One event of a scenario run: 8 bytes (the kind and the client packed in 32 bits, a 32-bit
/// value), so a heap entry is 24 bytes and a million pending events stay compact.
///
/// The driver knows three kinds, `send`, `timeout` and `dispatch`; every other kind belongs to the
/// server, which numbers its own events from 0 and alone reads them (a server made of others
/// numbers theirs after its own: ``SimulatedServer/eventKinds``). The four bits of the kind leave
/// room for ``serverKinds`` of them.
struct ScenarioEvent {
    enum Kind: Equatable {
        /// The client starts an attempt (the first of a request, or a retry).
        case send
        /// The client stops waiting for its attempt numbered `value`.
        case timeout
        /// The client's attempt, begun earlier, looks again for its token of the client-side rate
        /// limiter (its wait's generation `value`: a look that is not the latest is dropped).
        case dispatch
        /// One of the server's own events, by the server's number.
        case server(UInt32)
    }

    /// How many kinds of events a run's server may schedule: the codes of four bits the driver's
    /// three leave. The run of a server needing more stops at its start (``ScenarioRun``).
    static let serverKinds: UInt32 = 13

    /// The most clients a run may hold: the client index takes the low 28 bits.
    static let maximumClients = 1 << 28

    private let packed: UInt32
    /// A version (contention), a success flag, or an attempt number (capacity), truncated to 32 bits.
    let value: Int32

    init(kind: Kind, client: Int, value: Int64 = 0) {
        let code: UInt32
        switch kind {
        case .send: code = 0
        case .timeout: code = 1
        case .dispatch: code = 2
        case .server(let number):
            precondition(
                number < Self.serverKinds, "a server numbers its events below \(Self.serverKinds), got \(number)")
            code = number + 3
        }
        packed = code << 28 | UInt32(client)
        self.value = Int32(truncatingIfNeeded: value)
    }

    var kind: Kind {
        switch packed >> 28 {
        case 0: .send
        case 1: .timeout
        case 2: .dispatch
        case let code: .server(code - 3)
        }
    }

    var client: Int { Int(packed & 0x0FFF_FFFF) }
}
