import BackoffPolicies
import EventSimulation
import Stochastics

/// The calls of a ``ServiceStack`` and what they decide when answers come up: its layers, their
/// calls in a table of slots (a slot is reused once its call ends), their shared limits, random
/// streams and tallies.
///
/// A reference, so the stack's decisions wrapper (``StackDecisions``) and the stack itself both
/// reach it while the server below is being called. Answers only ever go up from here; a call's
/// next attempt is always an event, so nothing here calls the server below.
final class StackCalls {
    let layers: [ServiceLayer]
    let timeouts: [Int64]
    let behaviour: ClientBehaviour
    /// The requests' deadline, nanoseconds after their start, and whether the calls carry it.
    let deadline: Int64?
    let propagatesDeadline: Bool
    /// One stream per layer (index `k`), and one (index `layers.count`) for what the server below
    /// draws for the bottom layer's attempts.
    let streams: ClientStreams
    /// Each layer's policy, and whether it has a budget or breaker.
    let policies: UnsafeMutablePointer<BackoffPolicy>
    let gated: [Bool]
    /// Whether each layer has behaviours (``LayerBehaviour``): a layer without pays nothing for them.
    let behaves: [Bool]
    /// The layers whose calls are copies of a hedge above them (``LayerHedge``), bit k for layer
    /// k: layer 0's when the clients hedge (`--hedge`), layer k's when layer k − 1 does (a layer
    /// above the bottom with a hedge). At most ``Scenario/maximumLayers`` bits; a mask, not an
    /// array, so the stack's hot path reads it with no bounds check.
    let copyLayers: UInt64
    /// The clients' hedge of their attempts into the top layer (`--hedge` with layers).
    let clientsHedge: Hedging?
    /// What changes as the run goes, behind one pointer: a class's stored `var`s would pay a
    /// dynamic exclusivity check at every access, and this is the stack's hot path.
    let state: UnsafeMutablePointer<State>

    struct State {
        /// The table of calls: `count` slots in use (live or free), room for `capacity`. Plain
        /// memory, not an array, so a write to a call pays no uniqueness check.
        var calls = UnsafeMutablePointer<ServiceCall>.allocate(capacity: 64)
        var count = 0, capacity = 64
        var free: [Int32] = []
        /// Each layer's behaviours (``LayerBehaviour``), in the order their settings are registered.
        var behaviours: [[any LayerBehaviour]]
        var gates: [LimitsInForce?]
        var nextID: UInt32 = 0
        var tallies: [LayerTally]
        /// Each layer's calls in flight, counted for layers with behaviours only.
        var inFlight: [Int32]
        /// The hedged attempts of layers above the bottom, each call's call or hedge below (by
        /// slot; kept when ``cancelsBelow`` only), and the bottom attempts cancelled while the
        /// server held them (dropped if still queued: ``StackDecisions/takeCancellation(_:attempt:)``).
        var hedges = LayerHedges()
        var children: [Int32] = []
        var cancelledAttempts: Set<UInt32> = []
        /// Copies after the first the clients' hedge sent.
        var clientHedgeCopies = 0
        var clientAttempts = 0, orphanedAttempts = 0
        /// Whether a request found every slot taken (the run then fails: its numbers would be wrong).
        var overflowed = false
    }

    var tallies: [LayerTally] { state.pointee.tallies }
    var clientAttempts: Int {
        get { state.pointee.clientAttempts }
        set { state.pointee.clientAttempts = newValue }
    }
    var orphanedAttempts: Int {
        get { state.pointee.orphanedAttempts }
        set { state.pointee.orphanedAttempts = newValue }
    }
    var overflowed: Bool { state.pointee.overflowed }

    /// The most calls in progress at once: an event names its call's slot in 28 bits.
    static let maximumCalls = ScenarioEvent.maximumClients

    /// The stack's own events; the bottom server's are numbered after them (``ServiceStack/eventKinds``).
    enum Event: UInt32, CaseIterable {
        /// The call in the slot makes its next attempt (value: the call's id).
        case send
        /// The call's attempt (value: its tag) reaches its per-try timeout.
        case perTryTimeout
        /// The call's deadline passes (value: the call's id): its work is cancelled.
        case callDeadline
        /// The client's request's deadline passes (value: the client's attempt then in flight).
        case requestDeadline
        /// A layer's hedge (slot: its index in ``LayerHedges``, value: its id): its timer fires.
        case hedgeTimer
        /// A layer's hedge sends its next copy.
        case hedgeSend
        /// A losing copy's cancellation reaches it (slot: the copy's call, value: the call's id).
        case cancelCopy
    }

    init(scenario: Scenario, seed: UInt64) {
        layers = scenario.layers
        timeouts = layers.map(\.timeoutNanoseconds)
        behaviour = ClientBehaviour(retryAfter: scenario.retryAfter)
        deadline = scenario.deadline?.wholeNanoseconds
        propagatesDeadline = scenario.propagatesDeadline
        // A root of their own, beyond every client's stream index (at most 2^28).
        streams = ClientStreams(
            count: layers.count + 1, root: SeedDerivation.streamSeed(root: seed, stream: Self.streamIndex))
        policies = .allocate(capacity: layers.count)
        policies.initialize(from: layers.map(\.policy), count: layers.count)
        gated = layers.map { !$0.limits.isEmpty }
        behaves = layers.map { !$0.settings.isEmpty }
        clientsHedge = scenario.hedging
        copyLayers = scenario.layers.dropLast().enumerated().reduce(scenario.hedging == nil ? 0 : 1) { mask, layer in
            layer.element.hedging == nil ? mask : mask | 1 << (layer.offset + 1)
        }
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                behaviours: layers.enumerated().map { LayerBehaviours.behaviours(of: $1, index: $0, seed: seed) },
                gates: layers.map { layer in
                    layer.limits.isEmpty
                        ? nil : LimitsInForce(limits: layer.limits, clients: 0, failureKind: scenario.failureKind)
                },
                tallies: [LayerTally](repeating: LayerTally(), count: layers.count),
                inFlight: [Int32](repeating: 0, count: layers.count)))
    }

    deinit {
        state.pointee.calls.deallocate()  // ServiceCall holds no references: nothing to deinitialize
        state.deinitialize(count: 1)
        state.deallocate()
        policies.deinitialize(count: layers.count)
        policies.deallocate()
    }

    /// The stream index under the run's seed whose seed roots the layers' streams.
    static let streamIndex: UInt64 = 1 << 40

    var bottomLayer: Int { layers.count - 1 }

    /// Whether layer `layer` hedges its attempts as calls of the layer below.
    @inline(__always)
    func hedgesAttempts(_ layer: Int) -> Bool { copyLayers & 1 << (layer + 1) != 0 }

    /// Whether the calls of layer `layer` are copies of a hedge above (their caller is a hedge).
    @inline(__always)
    func callerIsHedge(_ layer: Int) -> Bool { copyLayers & 1 << layer != 0 }

    /// Whether anything hedges as calls of a layer: calls are then cancelled down the stack, and
    /// each call's attempt in flight is linked to its call below.
    @inline(__always)
    var cancelsBelow: Bool { copyLayers != 0 }

    subscript(slot: Int) -> ServiceCall { state.pointee.calls[slot] }

    /// A random source of layer `layer`'s stream.
    func random(_ layer: Int) -> ClientRandom { ClientRandom(streams: streams, client: layer) }

    /// The bottom layer's hedge asks for a copy after the first of the call in `slot`'s attempt: a
    /// retry to the layer's budget (as a client's hedge is to the clients'), in flight once granted.
    func grantsHedge(_ slot: Int, at time: Int64) -> Bool {
        let layer = Int(state.pointee.calls[slot].layer)
        guard gated[layer] else { return true }
        guard state.pointee.gates[layer]!.grantsRetry(client: slot, afterTimeout: false, at: time) else { return false }
        state.pointee.gates[layer]!.retryScheduled(client: slot)
        return true
    }

    /// A copy of the call in `slot`'s attempt failed without answering the call: a failed retry to
    /// the layer's limits.
    func copyFailed(_ slot: Int, at time: Int64) {
        let layer = Int(state.pointee.calls[slot].layer)
        guard gated[layer] else { return }
        state.pointee.gates[layer]!.recordAnswer(
            success: false, throttled: false, client: slot, wasRetry: true, at: time)
    }

    /// A number no call or attempt of this run has had (modulo 2^32).
    func newID() -> UInt32 {
        state.pointee.nextID &+= 1
        return state.pointee.nextID
    }
}
