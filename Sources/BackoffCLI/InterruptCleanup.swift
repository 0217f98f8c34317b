#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the temporary files of unfinished outputs when a signal ends the process (every signal
/// whose default action ends it and that a handler may catch: SIGINT, SIGTERM, SIGHUP, SIGQUIT,
/// SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ), then lets the signal
/// end the process as it would have. Without this an interrupted run would leave `.name.tmp-PID`
/// files beside its outputs (never a half file under the final name: that is what the temporary
/// file is for). A crash's signals stay with the Swift runtime's backtracer, and SIGKILL reaches
/// no handler: the next writer of the same output removes what those left (``AtomicFileWriter``).
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

    /// The signals that end the process by default and that a handler may catch (not a crash's).
    static let endingSignals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
    ]

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        _ = slots
        for signalNumber in endingSignals {
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
