/// The first stage of parsing: argv split into tokens, each keeping its position.
struct ArgumentToken: Equatable {
    enum Kind: Equatable {
        /// `--name` or `--name=value` (value attached), or `-h`.
        case option(name: String, attachedValue: String?)
        /// Anything else: a command name, an option's value, or a stray argument.
        case word(String)
    }

    let kind: Kind
    /// The index in the argument list (0 = the first argument after the program name).
    let index: Int
}

enum ArgumentLexer {
    /// Splits `arguments` into tokens. A word starting with `--` is an option (with `=value` attached
    /// or not); `-h` is the short help flag; everything else, including `-1`, is a word, so negative
    /// numbers reach the value parsers and get a precise message.
    static func tokens(_ arguments: [String]) -> [ArgumentToken] {
        arguments.enumerated().map { index, argument in
            if argument == "-h" {
                return ArgumentToken(kind: .option(name: "help", attachedValue: nil), index: index)
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                return ArgumentToken(kind: .word(argument), index: index)
            }
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return ArgumentToken(
                    kind: .option(
                        name: String(body[..<equals]), attachedValue: String(body[body.index(after: equals)...])),
                    index: index
                )
            }
            return ArgumentToken(kind: .option(name: String(body), attachedValue: nil), index: index)
        }
    }
}
