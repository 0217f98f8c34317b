/// Which session each client slot of an event-ordered run holds, and when a slot is free again.
///
/// A run keeps a client's state (its session, its random stream, its limits' counters) in a slot.
/// Without recycling, session i has slot i for the whole run, as it always had. With recycling, a
/// slot is taken when its session arrives and given back once the session has ended **and** the
/// server holds none of its attempts any more: an attempt the client stopped waiting for may still
/// be queued, and its service time is drawn from its session's stream when it starts, so the slot
/// must not pass to another session before then. A slot given back is taken again first (a stack),
/// so a run holds about as many slots as sessions are in flight at once, and its numbers are those
/// of a run without recycling (tested).
///
/// **Invariant** (with recycling): a slot is on the free stack exactly when its session has ended
/// and `held` is 0; `held` counts the slot's attempts the server received and has not yet answered,
/// rejected, wasted or dropped.
///
/// The slots live in memory of their own, as the run's clients do (an attempt updates its slot
/// without an array's uniqueness check); ``deallocate()`` frees it.
struct ClientSlots {
    private struct Slot {
        var session: Int
        var held: Int32
        var live: Bool
    }

    /// Whether slots pass from an ended session to a new one.
    let recycles: Bool
    private var slots = UnsafeMutableBufferPointer<Slot>(start: nil, count: 0)
    private var free: [Int32] = []
    /// The slots made so far (with recycling, the most sessions held at once).
    private(set) var count = 0

    init(recycles: Bool) { self.recycles = recycles }

    /// Frees the slots' memory at the end of a run; ``count`` and ``allFree`` still tell what it held.
    mutating func deallocate() {
        slots.deallocate()
        slots = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    /// A slot for `session`, arriving now: a free one, or a new one numbered `count`.
    mutating func take(session: Int) -> Int {
        guard recycles else {
            count += 1
            return session
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
        } else {
            if count == slots.count { grow() }
            slot = count
            count += 1
        }
        slots[slot] = Slot(session: session, held: 0, live: true)
        return slot
    }

    /// Room for twice as many slots (at least 1,024), the taken ones moved over.
    private mutating func grow() {
        let grown = UnsafeMutableBufferPointer<Slot>.allocate(capacity: max(1024, 2 * slots.count))
        _ = grown.moveInitialize(fromContentsOf: slots)
        slots.deallocate()
        slots = grown
    }

    /// The session slot `slot` holds.
    @inline(__always)
    func session(of slot: Int) -> Int { recycles ? slots[slot].session : slot }

    /// The server received an attempt of `slot`'s session.
    @inline(__always)
    mutating func attemptReceived(_ slot: Int) {
        if recycles { slots[slot].held += 1 }
    }

    /// The server is done with an attempt of `slot`'s session (answered, rejected, wasted, dropped).
    @inline(__always)
    mutating func attemptReleased(_ slot: Int) {
        guard recycles else { return }
        slots[slot].held -= 1
        assert(slots[slot].held >= 0, "slot \(slot) released more attempts than its server received")
        if slots[slot].held == 0 && !slots[slot].live { free.append(Int32(slot)) }
    }

    /// `slot`'s session ended.
    @inline(__always)
    mutating func sessionEnded(_ slot: Int) {
        guard recycles else { return }
        slots[slot].live = false
        if slots[slot].held == 0 { free.append(Int32(slot)) }
    }

    /// With recycling, whether every slot is free (every session ended, every attempt released):
    /// true at the end of a run whose server released each attempt it received.
    var allFree: Bool { !recycles || free.count == count }
}
