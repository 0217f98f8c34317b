/// Parses option values: durations with units, numbers, counts and comma-separated lists.
/// Each returns `nil` for text that is not of its form; the caller names the option and the form.
enum ValueParser {
    /// Nanoseconds per unit, longest suffix first so `ms` is not read as `m` + `s`.
    private static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// A non-negative duration such as `250ms`, `1.5s`, `2m`, converted exactly to whole
    /// nanoseconds (decimal digits are scaled as integers, so `0.1s` is 100,000,000 ns). No sign, no
    /// space, no exponent; a value finer than 1 ns or beyond 2^63 ns is rejected.
    static func duration(_ text: String) -> Duration? {
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || (!fraction.isEmpty && fraction.allSatisfy(\.isASCIIDigit)) else { return nil }
        guard let wholeValue = Int64(whole) else { return nil }
        var (total, overflow) = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !overflow else { return nil }
        if !fraction.isEmpty {
            // fraction × unit / 10^digits must be a whole number of nanoseconds.
            var scale: Int64 = 1
            for _ in fraction { (scale, overflow) = scale.multipliedReportingOverflow(by: 10); guard !overflow else { return nil } }
            guard let fractionValue = Int64(fraction) else { return nil }
            let (scaled, fractionOverflow) = fractionValue.multipliedReportingOverflow(by: unit.nanoseconds)
            guard !fractionOverflow, scaled % scale == 0 else { return nil }
            (total, overflow) = total.addingReportingOverflow(scaled / scale)
            guard !overflow else { return nil }
        }
        return .nanoseconds(total)
    }

    /// A finite decimal number (`2`, `1.5`, `1e-3`); `nan` and `inf` are rejected.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, !text.lowercased().hasPrefix("0x") else { return nil }
        return value
    }

    /// A whole number written in decimal digits.
    static func integer(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// Comma-separated items, none of them empty.
    static func list(_ text: String) -> [String]? {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return items.contains(where: \.isEmpty) ? nil : items
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
