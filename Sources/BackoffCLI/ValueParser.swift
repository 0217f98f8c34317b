import EventSimulation

/// Parses option values: durations with units, numbers, counts and comma-separated lists.
/// Each returns `nil` for text that is not of its form; the caller names the option and the form.
enum ValueParser {
    /// A non-negative duration such as `250ms`, `1.5s`, `2m` (see `DurationText`).
    static func duration(_ text: String) -> Duration? { DurationText.duration(text) }

    /// What a duration's text reads as (see `DurationText.Reading`).
    typealias DurationReading = DurationText.Reading

    /// The longest duration an option takes, as help and messages write it.
    static let horizonText = "2^62 ns (1281023h, about 146 years)"

    /// Reads `text` as a duration (see `DurationText.reading(_:)`).
    static func durationReading(_ text: String) -> DurationReading { DurationText.reading(text) }

    /// A finite decimal number (`2`, `1.5`, `1e-3`); `nan` and `inf` are rejected.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, !text.lowercased().hasPrefix("0x") else { return nil }
        return value
    }

    /// A whole number written in decimal digits, up to `Int.max`.
    static func integer(_ text: String) -> Int? {
        guard isDigits(text) else { return nil }
        return Int(text)
    }

    /// True when `text` is one or more decimal digits (a whole number, whatever its size).
    static func isDigits(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }

    /// Comma-separated items, none of them empty.
    static func list(_ text: String) -> [String]? {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return items.contains(where: \.isEmpty) ? nil : items
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
