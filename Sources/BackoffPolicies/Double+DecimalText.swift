extension Double {
    /// The shortest text that reads back as exactly this value (`0.1`, `1.5`, `5`, `1e-05`): a whole
    /// number below 10^15 without Swift's `.0`; `nan`, `inf` and `-inf` for the special values;
    /// negative zero as `0`. The CSV tables write their numbers so, and messages quote them so.
    @inlinable public var decimalText: String {
        if isNaN { return "nan" }
        if isInfinite { return self > 0 ? "inf" : "-inf" }
        if self == 0 { return "0" }
        // A whole number below 10^15 prints as its digits (the description would add ".0"):
        // formatted as an integer, without the shortest-decimal search.
        if magnitude < 1e15, self == rounded(.towardZero) { return String(Int64(self)) }
        let text = description
        let bytes = text.utf8
        guard bytes.count > 2, bytes.suffix(2).elementsEqual(".0".utf8) else { return text }
        return String(decoding: bytes.dropLast(2), as: UTF8.self)
    }
}
