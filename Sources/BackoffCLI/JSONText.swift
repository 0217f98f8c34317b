/// JSON text written by hand (the tables' JSON Lines and `explain --format json`), so that each
/// value is written exactly as the CSV cell it comes from: a number keeps its shortest round-trip
/// digits, a member keeps its place.
enum JSONText {
    /// `text` as a JSON string, escaped as RFC 8259 asks.
    static func string(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// A JSON object of `members`, each value already JSON, in the order given.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A CSV cell as a JSON value: `null` for an empty cell (no value); a number as itself when
    /// its text is a JSON number that a reader of doubles reads back exactly; a string otherwise.
    /// So `inf` (no limit) is the string `"inf"` (JSON has no infinity), and a whole number beyond
    /// 2^53 (a derived seed) is a string of its digits, which jq, reading doubles, would round.
    /// A column of words (`textual`) is always strings, whatever its cells look like.
    static func cell(_ text: String, textual: Bool = false) -> String {
        if text.isEmpty { return "null" }
        if !textual, isExactNumber(text) { return text }
        return string(text)
    }

    /// A cell as a JSON number where it is a finite one, `null` otherwise (empty, `inf`): for
    /// members that are numbers by definition, such as `explain`'s.
    static func number(_ text: String?) -> String {
        guard let text, isNumber(text), let value = Double(text), value.isFinite else { return "null" }
        return text
    }

    /// Whether `text` is a JSON number (RFC 8259's grammar: `-? int frac? exp?`).
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let integer = digits()
        guard integer > 0, !(leadingZero && integer > 1) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// A JSON number that reads back as itself through a double: a whole number within ±2^53, or
    /// any other finite number (the tables write decimals as the shortest text of a double).
    private static func isExactNumber(_ text: String) -> Bool {
        guard isNumber(text), let value = Double(text), value.isFinite else { return false }
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return true }
        return Int64(text).map { $0.magnitude <= 9_007_199_254_740_992 } ?? false
    }
}
