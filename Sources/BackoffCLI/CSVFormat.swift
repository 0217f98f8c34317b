import BackoffPolicies

/// How values are written in CSV: shortest round-trip decimals, seconds for times, `inf` for "no
/// limit", an empty field for "no value" (a formula with no closed form).
enum CSVFormat {
    /// The shortest text that reads back as exactly `value` (see `Double.decimalText`).
    static func number(_ value: Double) -> String { value.decimalText }

    static func number(_ value: Double?) -> String { value.map { number($0) } ?? "" }

    static func integer(_ value: Int) -> String { String(value) }

    /// Whole nanoseconds as seconds.
    static func seconds(nanoseconds: Int64) -> String { number(Double(nanoseconds) / 1e9) }

    /// A duration as seconds; `nil` (no limit) as `inf`.
    static func seconds(_ duration: Duration?) -> String {
        guard let duration else { return "inf" }
        return number(duration.nanoseconds / 1e9)
    }

    /// One record: the fields, each quoted where it must be, separated by commas (no line end).
    static func record(_ fields: [String]) -> String {
        // Assembled as bytes, each field's read in place: a sweep writes every point's hundred fields.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(fields.count) { $0 + $1.utf8.count + 2 })
        for (position, text) in fields.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            append(text, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A field, quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a field: as it is, or in quotes with each quote doubled when it holds a
    /// comma, a quote or a line break. Looked for byte by byte: the four are ASCII, and a
    /// multi-byte character never holds an ASCII byte.
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let (comma, quote, newline, carriageReturn) = (
            UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r")
        )
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == comma || $0 == quote || $0 == newline || $0 == carriageReturn }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(quote)
            for byte in utf8 {
                bytes.append(byte)
                if byte == quote { bytes.append(quote) }
            }
            bytes.append(quote)
        }
    }
}
