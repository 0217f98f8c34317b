/// An INI file read as Python's `configparser.RawConfigParser` reads it with its defaults (Python
/// 3.11), which is how botocore reads `~/.aws/config` (`botocore.configloader.raw_config_parse`):
///
/// - a section is `[NAME]`: the text between the first `[` and the last `]` of the line, however
///   odd; a line that starts no section before the first section is an error;
/// - an option is `key = value` or `key: value`, split at the first `=` or `:`; keys are
///   lowercased, values stripped, and an empty key or a line without a delimiter is an error;
/// - a line indented deeper than its option's continues the value (joined with newlines, blank
///   lines kept inside, trailing ones dropped);
/// - a line whose first non-space character is `#` or `;` is a comment; nothing is an inline
///   comment (`a = 1 # x` is the value `1 # x`);
/// - a repeated section or a repeated key in one section is an error;
/// - `[DEFAULT]`'s keys are every section's, unless the section sets them itself.
///
/// Lines end at `\n`, `\r\n` or `\r`; whitespace is what Python's `str.isspace` calls whitespace.
/// The text must be UTF-8; a byte-order mark is not skipped (Python's reader keeps it, so such a
/// file has no section header).
struct INIFile: Sendable {
    /// A value, and the line its option is on (from 1).
    struct Entry: Hashable, Sendable {
        let value: String
        let line: Int
    }

    /// A section: its name, the line of its header, and its keys in the file's order.
    struct Section: Sendable {
        let name: String
        let line: Int
        fileprivate(set) var entries: [(key: String, entry: Entry)] = []

        /// The entry for `key`, if the section sets it.
        func entry(_ key: String) -> Entry? { entries.first { $0.key == key }?.entry }
    }

    /// A file Python's reader refuses: `description` says why and on which line.
    struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The sections other than `[DEFAULT]`, in the file's order.
    let sections: [Section]
    /// `[DEFAULT]`'s keys.
    let defaults: Section

    /// Reads `bytes` as a UTF-8 INI file.
    init(bytes: some Collection<UInt8>) throws(Invalid) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Invalid(description: "not UTF-8 text")
        }
        try self.init(text: text)
    }

    /// Reads `text` as an INI file.
    init(text: String) throws(Invalid) {
        var sections: [Section] = []
        var defaults = Section(name: "DEFAULT", line: 0)
        // The section being read (nil before the first; DEFAULT's is `.defaults`), the option whose
        // value may continue (its lines so far), and that option's indentation.
        var current: Place?
        var option: (key: String, line: Int, lines: [String])?
        var indent = 0
        var firstError: Invalid?

        func finishOption() {
            guard let (key, line, lines) = option, let current else { return }
            option = nil
            var value = lines.joined(separator: "\n")
            while let last = value.unicodeScalars.last, Self.isSpace(last) { value.unicodeScalars.removeLast() }
            let entry = Entry(value: value, line: line)
            switch current {
            case .defaults: defaults.entries.append((key, entry))
            case .section(let index): sections[index].entries.append((key, entry))
            }
        }

        for (offset, line) in Self.lines(of: text).enumerated() {
            let number = offset + 1
            let stripped = Self.strip(line)
            if stripped.isEmpty || stripped.first == "#" || stripped.first == ";" {
                // A blank line inside a value is kept; a comment line is not part of it.
                if stripped.isEmpty, option != nil { option!.lines.append("") }
                continue
            }
            let depth = line.firstIndex { !Self.isSpace($0) } ?? 0
            if option != nil, depth > indent {
                option!.lines.append(String(String.UnicodeScalarView(stripped)))
                continue
            }
            finishOption()
            indent = depth
            if let name = Self.sectionName(stripped) {
                if name == "DEFAULT" {
                    current = .defaults
                } else {
                    guard !sections.contains(where: { $0.name == name }) else {
                        throw Invalid(
                            description: "line \(number): section '[\(Self.shown(name.unicodeScalars))]' appears twice")
                    }
                    sections.append(Section(name: name, line: number))
                    current = .section(sections.count - 1)
                }
                continue
            }
            guard let section = current else {
                guard stripped.first != "\u{FEFF}" else {
                    throw Invalid(
                        description: "line \(number): starts with a byte-order mark, which Python's reader keeps as "
                            + "text, so the line starts no [section]: save the file as UTF-8 without one")
                }
                throw Invalid(description: "line \(number): '\(Self.shown(stripped))' comes before the first [section]")
            }
            guard let delimiter = stripped.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                firstError =
                    firstError
                    ?? Invalid(description: "line \(number): expected 'key = value', a [section] or a comment")
                continue
            }
            let key = String(String.UnicodeScalarView(Self.strip(stripped[..<delimiter]))).lowercased()
            if key.isEmpty {
                firstError = firstError ?? Invalid(description: "line \(number): a value without a key")
            }
            let existing: Section
            switch section {
            case .defaults: existing = defaults
            case .section(let index): existing = sections[index]
            }
            if existing.entry(key) != nil {
                throw Invalid(
                    description: "line \(number): key '\(Self.shown(key.unicodeScalars))' appears twice in "
                        + "'[\(Self.shown(existing.name.unicodeScalars))]'")
            }
            let value = String(String.UnicodeScalarView(Self.strip(stripped[(delimiter + 1)...])))
            option = (key, number, [value])
        }
        finishOption()
        if let firstError { throw firstError }
        self.sections = sections
        self.defaults = defaults
    }

    /// Where the lines being read go.
    private enum Place {
        case defaults
        case section(Int)
    }

    /// The value of `key` in `section` as Python's reader gives it: the section's own, else `[DEFAULT]`'s.
    func entry(_ key: String, in section: Section) -> Entry? { section.entry(key) ?? defaults.entry(key) }

    /// The keys `section` has, its own first, then `[DEFAULT]`'s it does not set.
    func keys(of section: Section) -> [String] {
        let own = section.entries.map(\.key)
        return own + defaults.entries.map(\.key).filter { !own.contains($0) }
    }

    /// The text's lines, split as Python's universal newlines split a file (at `\n`, `\r\n`, `\r`).
    private static func lines(of text: String) -> [[Unicode.Scalar]] {
        split(text) { $0 == "\n" || $0 == "\r" }
    }

    /// `text`'s lines as Python's `str.splitlines()` splits them: at the file's line ends and at the
    /// other boundaries Python knows (`\u{0B}`, `\u{0C}`, `\u{1C}`–`\u{1E}`, `\u{85}`,
    /// `\u{2028}`, `\u{2029}`).
    static func pythonLines(_ text: String) -> [[Unicode.Scalar]] {
        split(text) {
            switch $0.value {
            case 0x0A...0x0D, 0x1C...0x1E, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
    }

    /// `text` split at each scalar `isBoundary` takes, `\r\n` one boundary; no last empty line.
    private static func split(_ text: String, at isBoundary: (Unicode.Scalar) -> Bool) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var line: [Unicode.Scalar] = []
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if afterCR && scalar == "\n" { continue }
            if isBoundary(scalar) {
                lines.append(line)
                line = []
            } else {
                line.append(scalar)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A section header's name: the text between a leading `[` and the last `]` after it, at least
    /// one character (Python's `\[(?P<header>.+)\]`, matched at the start).
    private static func sectionName(_ line: ArraySlice<Unicode.Scalar>) -> String? {
        guard line.first == "[", let close = line.lastIndex(of: "]"), close > line.startIndex + 1 else { return nil }
        return String(String.UnicodeScalarView(line[(line.startIndex + 1)..<close]))
    }

    /// `text` without leading and trailing whitespace (Python's `str.strip()`).
    static func strip(_ text: some BidirectionalCollection<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        let scalars = Array(text)
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return [] }
        let last = scalars.lastIndex { !isSpace($0) }!
        return scalars[first...last]
    }

    /// Text from the file as a message shows it: control characters escaped (`\u{1B}`), and cut
    /// after 60 characters.
    static func shown(_ text: some Sequence<Unicode.Scalar>) -> String {
        var shown = ""
        var count = 0
        for scalar in text {
            count += 1
            guard count <= 60 else { return shown + "..." }
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFEFF {
                shown += "\\u{\(String(value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Whether Python's `str.isspace` calls `scalar` whitespace (bidirectional class WS, B or S, or
    /// category Zs).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            true
        default:
            false
        }
    }
}
