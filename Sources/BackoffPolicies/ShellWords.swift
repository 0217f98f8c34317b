/// Text split into words as Python's `shlex.split` splits it (POSIX mode, no comments), which is
/// how botocore reads a `[profile NAME]` header: words part at spaces, tabs and line ends; `'…'`
/// keeps everything inside; `"…"` keeps everything but a backslash before `"` or `\`; outside
/// quotes a backslash keeps the next character; quotes join the text around them into one word.
enum ShellWords {
    /// The words of `text`; `nil` for an unclosed quote or a backslash at the end (`shlex.split`
    /// raises `ValueError`).
    static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var quote: Unicode.Scalar?
        var escaped = false
        // Code point by code point, as Python reads it (a Character would join `"` to a combining mark).
        for character in text.unicodeScalars {
            if escaped {
                // Inside double quotes, a backslash escapes only `"` and itself.
                if quote == "\"" && character != "\"" && character != "\\" { word.append("\\") }
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"" && character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" || character == "\r" || character == "\n" {
                if inWord { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            } else {
                inWord = true
                switch character {
                case "\\": escaped = true
                case "'", "\"": quote = character
                default: word.append(character)
                }
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(String(word)) }
        return words
    }
}
