import Testing

@testable import BackoffCLI

/// An option may be declared repeatable: every value is kept in order and parsed alone.
@Suite struct RepeatableOptionTests {
    static let bound = Option<[Int]>.repeatable(
        "bound", "count", form: "a whole number, e.g. 3", help: "A bound (repeatable).",
        parse: Parsers.count(in: 0...100))
    static let once = Option(
        "once", "count", default: "1", form: "a whole number", help: "Once.", parse: Parsers.count(in: 0...9))

    func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedOptions {
        try ParsedOptions(
            command: "test", specs: [Self.bound.spec, Self.once.spec], tokens: ArgumentLexer.tokens(arguments))
    }

    @Test func everyValueIsKeptInOrder() throws {
        let options = try parse(["--bound", "3", "--once", "2", "--bound=7", "--bound", "3"])
        #expect(try options(all: Self.bound) == [3, 7, 3])
        #expect(try options(Self.once) == 2)
        #expect(try parse([])(all: Self.bound) == [])
    }

    @Test func aBadValueIsQuotedAlone() {
        do {
            _ = try parse(["--bound", "3", "--bound", "300"])(all: Self.bound)
            Issue.record("300 is out of range")
        } catch {
            guard case .usage(let message, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.hasPrefix("Invalid value '300' for '--bound <count>'"), "\(message)")
        }
    }

    @Test func otherOptionsAreStillGivenOnce() {
        #expect(throws: CommandLineError.self) { try parse(["--once", "1", "--once", "2"]) }
    }

    /// tune's --constraint is repeatable through the declaration (no hand lexing).
    @Test func tuneTakesEveryConstraint() throws {
        #expect(TuneCommand.constraint.spec.isRepeatable)
        #expect(!SimulateCommand.specs.contains { $0.isRepeatable })
    }
}
