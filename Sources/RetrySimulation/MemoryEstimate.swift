/// What a run will allocate, estimated from its parameters before anything is allocated: a list of
/// items, each charged to the parameter that drives it, so a run that would not fit is refused with
/// the parameter to change.
public struct MemoryEstimate: Sendable {
    public struct Item: Sendable {
        /// The option that drives this item, as the user would change it (`--requests-per-client`).
        public var parameter: String { describeParameter() }
        /// What is allocated, in words a message can show (`2 clients x 1,000,000,000 requests, 8 bytes each`).
        public var what: String { describeWhat() }
        public let bytes: Double
        /// The texts are written only when a message shows them: every sweep point is estimated.
        private let describeParameter: @Sendable () -> String
        private let describeWhat: @Sendable () -> String

        public init(
            parameter: @autoclosure @escaping @Sendable () -> String,
            what: @autoclosure @escaping @Sendable () -> String,
            bytes: Double
        ) {
            (describeParameter, describeWhat, self.bytes) = (parameter, what, bytes)
        }
    }

    public private(set) var items: [Item]

    public init(_ items: [Item] = []) { self.items = items }

    /// The sum of the items, in bytes.
    public var bytes: Double { items.reduce(0) { $0 + $1.bytes } }

    /// The item that costs most (the parameter a message names), if any.
    public var largest: Item? { items.max { $0.bytes < $1.bytes } }

    /// Every item multiplied by `factor` (runs held at once), described as such.
    public func times(_ factor: Int, _ reason: String) -> MemoryEstimate {
        guard factor > 1 else { return self }
        return MemoryEstimate(
            items.map { item in
                Item(parameter: item.parameter, what: "\(item.what), \(reason)", bytes: item.bytes * Double(factor))
            })
    }

    public static func + (left: MemoryEstimate, right: MemoryEstimate) -> MemoryEstimate {
        MemoryEstimate(left.items + right.items)
    }

    /// A count with thousands separators, for messages.
    public static func count(_ value: Double) -> String {
        guard value < 1e15 else { return "\(value)" }
        let digits = String(Int64(value.rounded()))
        var grouped = ""
        for (offset, digit) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return String(grouped.reversed())
    }
}
