/// A layer behaviour: the layer holds at most `limit` calls in flight (`--layer concurrency=N`,
/// a bulkhead, as Envoy's `max_requests` circuit breaker or a server's worker pool is). A request
/// that finds the layer full is refused at once, as a failure its caller may retry; a place frees
/// when a call ends, whatever its answer.
public struct ConcurrencyCap: LayerSetting {
    /// The most calls in flight at once, at least 1.
    public let limit: Int

    /// The most a cap may be: far beyond any run's calls, and a bound for a hostile value.
    public static let largest = 1_000_000_000

    /// A cap of `limit` calls (1 to ``largest``); `nil` for another limit.
    public init?(limit: Int) {
        guard (1...Self.largest).contains(limit) else { return nil }
        self.limit = limit
    }

    public static let key = "concurrency"
    public static let valueName = "count"
    public static let valueKind = LayerValueKind.count
    public static let form = "a whole number from 1 to \(largest), e.g. 100"
    public static let help = "The most requests the layer holds at once."
    public static let summary = "requests held at once; more are refused"

    public init(parsing text: String) throws(LayerSettingError) {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { throw LayerSettingError() }
        guard let limit = Int(text).flatMap(Self.init(limit:)) else { throw LayerSettingError("out of range") }
        self = limit
    }

    public var valueText: String { String(limit) }

    public func makeBehaviour(seed: UInt64) -> any LayerBehaviour { InFlight(limit: limit) }

    /// The cap's machine: the calls in flight, against the limit.
    struct InFlight: LayerBehaviour {
        let limit: Int
        private(set) var count = 0

        init(limit: Int) { self.limit = limit }

        func admits(at now: Int64) -> Bool { count < limit }

        mutating func opened(at now: Int64) {
            precondition(count < limit, "a call opened past the concurrency cap")
            count += 1
        }

        mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding) {
            precondition(count > 0, "a call closed that never opened")
            count -= 1
        }
    }
}
