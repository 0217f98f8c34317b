#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the temporary files of unfinished outputs when the process is interrupted (SIGINT,
/// SIGTERM, SIGHUP), then lets the signal end the process as it would have. Without this an
/// interrupted run would leave `.name.tmp-PID` files beside its outputs (never a half file under
/// the final name: that is what the temporary file is for).
///
/// The handler may only call async-signal-safe functions, so the paths live in a fixed table of C
/// strings allocated up front; registration happens on the thread that creates the writers.
enum InterruptCleanup {
    private static let capacity = 16
    private nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    private nonisolated(unsafe) static var handlersInstalled = false

    /// Registers `path` for removal on interrupt; returns its slot, or `nil` when the table is full.
    static func register(_ path: String) -> Int? {
        installHandlers()
        guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
        slots[slot] = strdup(path)
        return slot
    }

    /// Forgets a path once its file is renamed or removed.
    static func unregister(_ slot: Int) {
        let path = slots[slot]
        slots[slot] = nil
        free(path)
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        _ = slots
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                for slot in 0..<InterruptCleanup.capacity {
                    if let path = InterruptCleanup.slots[slot] { unlink(path) }
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
