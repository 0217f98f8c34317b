import BackoffPolicies

/// How values are written in CSV: shortest round-trip decimals, seconds for times, `inf` for "no
/// limit", an empty field for "no value" (a formula with no closed form).
enum CSVFormat {
    /// The shortest text that reads back as exactly `value` (`0.1`, `1.5`, `5`, `1e-05`); `nan`,
    /// `inf` and `-inf` for the special values; negative zero as `0`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == 0 { return "0" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func number(_ value: Double?) -> String { value.map { number($0) } ?? "" }

    static func integer(_ value: Int) -> String { String(value) }

    /// Whole nanoseconds as seconds.
    static func seconds(nanoseconds: Int64) -> String { number(Double(nanoseconds) / 1e9) }

    /// A duration as seconds; `nil` (no limit) as `inf`.
    static func seconds(_ duration: Duration?) -> String {
        guard let duration else { return "inf" }
        return number(duration.nanoseconds / 1e9)
    }

    /// A field, quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + String(text.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }
}
