/// One event of a scenario run: 16 bytes, no allocation.
struct ScenarioEvent {
    enum Kind: UInt8 {
        /// The client starts an attempt (the first of a request, or a retry).
        case send
        /// Contention: a read arrives at the server; its reply reaches the client; the write
        /// (carrying the version read, in `value`) arrives; its reply (`value` 1 = success) returns.
        case readAtServer, readReply, writeAtServer, writeReply
        /// Capacity: a worker finishes the attempt numbered `value` of the client.
        case serviceDone
        /// The client stops waiting for its attempt numbered `value`.
        case timeout
    }

    var kind: Kind
    var client: Int32
    var value: Int64
}
