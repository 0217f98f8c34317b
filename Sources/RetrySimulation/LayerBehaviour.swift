/// What a service layer does to the requests it takes, besides retrying them: a cap on its calls
/// in flight today, adaptive concurrency limits and load shedding next. A layer's behaviours are
/// declared by their settings (``LayerSetting``) and run as state machines of the layer's calls.
///
/// Each input is one event of a call's life, and each answer is a decision the stack carries out:
/// a request reaches the layer (``admits(at:)``: refused, it is answered at once with a failure
/// its caller may retry), a call it admitted opens (``opened(at:)``), and that call ends
/// (``closed(at:_:_:)``, with when it opened and the layer's calls in flight then). A behaviour reads nothing else and acts on nothing else, so it is
/// one file: its setting, its machine, and one line in ``LayerBehaviours/registered``.
public protocol LayerBehaviour {
    /// Whether a request reaching the layer at `now` (nanoseconds) may open a call.
    func admits(at now: Int64) -> Bool
    /// A call opened at `now`: every behaviour of the layer admitted it.
    mutating func opened(at now: Int64)
    /// `call` ended at `now`, as `ending` says.
    mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding)
}

/// A call of a layer, as its behaviours hear of it when it ends.
public struct LayerCall: Equatable, Sendable {
    /// When it opened, nanoseconds.
    public let openedAt: Int64
    /// The layer's calls in flight just after it opened, itself included: what Netflix's limiters
    /// pass as `inflight` with each sample.
    public let inFlightAtOpen: Int

    /// The call that opened at `openedAt` with `inFlightAtOpen` calls in flight.
    /// - Parameters:
    ///   - openedAt: When it opened, nanoseconds.
    ///   - inFlightAtOpen: The layer's calls in flight just after it opened, itself included.
    public init(openedAt: Int64, inFlightAtOpen: Int) {
        (self.openedAt, self.inFlightAtOpen) = (openedAt, inFlightAtOpen)
    }
}

/// How a layer's call ended, as its behaviours hear it.
public enum LayerCallEnding: Equatable, Sendable {
    /// The call answered its caller with a success.
    case succeeded
    /// The call answered its caller with a failure: it gave up, met a permanent error, or its
    /// budget or breaker refused what it needed.
    case failed
    /// The call's deadline passed: its work was cancelled, and nobody waits for its answer.
    case cancelled
}

/// How a layer declares one of its behaviours (`simulate --layer KEY=VALUE`): the key, the form of
/// its value and its help, read and printed by the setting itself, and the behaviour it makes. The
/// command line takes every registered setting's key from here (``LayerBehaviours/registered``).
public protocol LayerSetting: Hashable, Sendable, CustomStringConvertible {
    /// The key in a layer's spec, e.g. `concurrency`.
    static var key: String { get }
    /// The name of its value in the help, e.g. `count`.
    static var valueName: String { get }
    /// What its value is, so that a sweep or a search ranges it as it ranges an option of that kind.
    static var valueKind: LayerValueKind { get }
    /// The form its value takes, for an error message: "a whole number from 1 to 1000000000, e.g. 100".
    static var form: String { get }
    /// One line of help: what the layer does with it.
    static var help: String { get }
    /// A few words for the list of a layer's keys, e.g. "requests held at once; more are refused".
    static var summary: String { get }
    /// The setting a value of the key's text gives.
    /// - Throws: ``LayerSettingError`` when the text is not of the ``form``.
    init(parsing text: String) throws(LayerSettingError)
    /// The value's text, as the setting reads it back (``description`` is `key=value`).
    var valueText: String { get }
    /// A new run's behaviour for one layer, in its initial state; what it draws (a jitter, a
    /// probe) it draws from a stream seeded with `seed`, its own in the run.
    func makeBehaviour(seed: UInt64) -> any LayerBehaviour
}

extension LayerSetting {
    public var description: String { "\(Self.key)=\(valueText)" }
}

/// What a layer setting's value is.
public enum LayerValueKind: Sendable {
    /// A whole number.
    case count
    /// A decimal number.
    case number
    /// A duration with a unit.
    case duration
    /// Anything else.
    case text
}

/// A layer setting's text that is not of the setting's form; `detail` says more when the form
/// alone does not ("out of range").
public struct LayerSettingError: Error, Equatable {
    public let detail: String?

    public init(_ detail: String? = nil) { self.detail = detail }
}
