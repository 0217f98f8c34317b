import BackoffPolicies

/// How one kind of value is written into a CSV cell and read back. A table's writer and `check`'s
/// reader use the same codec (through a ``TypedColumn``), so a cell reads back as the value that
/// wrote it.
struct CellCodec<Value>: Sendable {
    /// Why a cell holds no value of this kind: the reason `check` gives after the cell's text.
    struct Unreadable: Error {
        let reason: String
    }

    let write: @Sendable (Value) -> String
    let read: @Sendable (String) throws(Unreadable) -> Value
    /// True when every cell is a number (or empty): a column `tune` may optimise or bound.
    let holdsNumbers: Bool

    init(
        write: @escaping @Sendable (Value) -> String, read: @escaping @Sendable (String) throws(Unreadable) -> Value,
        holdsNumbers: Bool = false
    ) {
        self.write = write
        self.read = read
        self.holdsNumbers = holdsNumbers
    }

    /// A codec whose reader gives `nil` for a cell that holds no value, for the reason `unreadable`.
    init(
        _ unreadable: String, write: @escaping @Sendable (Value) -> String,
        read: @escaping @Sendable (String) -> Value?, holdsNumbers: Bool = false
    ) {
        self.write = write
        self.read = { text throws(Unreadable) in
            guard let value = read(text) else { throw Unreadable(reason: unreadable) }
            return value
        }
        self.holdsNumbers = holdsNumbers
    }
}

extension CellCodec where Value == Double {
    /// A decimal number, as short as reads back to the same double.
    static let number = CellCodec(
        "not a number", write: CSVFormat.number, read: ValueParser.number, holdsNumbers: true)
}

extension CellCodec where Value == Double? {
    /// A decimal number, or empty where the row has none.
    static let numberOrEmpty = CellCodec(
        "not a number", write: { $0.map(CSVFormat.number) ?? "" },
        read: { text in text.isEmpty ? .some(nil) : ValueParser.number(text).map { $0 } }, holdsNumbers: true)
}

extension CellCodec where Value == Int {
    static let count = CellCodec(
        "not a whole number", write: CSVFormat.integer, read: ValueParser.integer, holdsNumbers: true)
}

extension CellCodec where Value == Duration? {
    /// Seconds, read back to whole nanoseconds; `inf` is no limit (`nil`).
    static let seconds = CellCodec(
        "not a number of seconds", write: { CSVFormat.seconds($0) }, read: { text in Self.readSeconds(text) },
        holdsNumbers: true)

    /// Seconds, where 0 (or an empty cell, in tables older than the column) is none (`nil`).
    static let secondsOrZero = CellCodec(
        "not a number of seconds", write: { $0.map(CSVFormat.seconds) ?? "0" },
        read: { text in text.isEmpty || text == "0" ? .some(nil) : Self.readSeconds(text) }, holdsNumbers: true)

    /// `inf` as `.some(nil)`; seconds within about 285 years to whole nanoseconds.
    private static func readSeconds(_ text: String) -> Duration?? {
        if text == "inf" { return .some(nil) }
        // Unwrapped first: returned as is, a nil would promote to `.some(nil)`, which is `inf`.
        guard let duration = CellCodec<Duration>.wholeNanoseconds(text) else { return nil }
        return duration
    }
}

extension CellCodec where Value == Duration {
    /// Seconds greater than 0, read back to whole nanoseconds.
    static let positiveSeconds = CellCodec(
        "not a positive number of seconds", write: { CSVFormat.seconds($0) },
        read: { text in wholeNanoseconds(text).flatMap { $0 > .zero ? $0 : nil } }, holdsNumbers: true)

    /// Seconds within about 285 years, to whole nanoseconds; `nil` for other text.
    fileprivate static func wholeNanoseconds(_ text: String) -> Duration? {
        guard let value = ValueParser.number(text), value.isFinite, abs(value) < 9e9 else { return nil }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }
}

extension CellCodec {
    /// A raw value, or empty in tables older than the column (`nil`: the default applies).
    static func rawOrEmpty<Raw: RawRepresentable<String> & Sendable>(_ unreadable: String) -> CellCodec
    where Value == Raw? {
        CellCodec(
            unreadable, write: { $0?.rawValue ?? "" },
            read: { text in text.isEmpty ? .some(nil) : Raw(rawValue: text).map { $0 } })
    }
}
