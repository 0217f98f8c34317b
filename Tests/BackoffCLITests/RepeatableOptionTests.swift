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

    /// tune's --constraint is repeatable through the declaration (no hand lexing), and so is
    /// simulate's --layer, the only repeatable option tune passes on.
    @Test func tuneTakesEveryConstraint() throws {
        #expect(TuneCommand.constraint.spec.isRepeatable)
        #expect(SimulateCommand.specs.filter(\.isRepeatable).map(\.name) == [LayerOptions.layer.name])
    }

    /// A point's options keep every value of a repeatable option, in order: a tune candidate's
    /// layers are all its layers.
    @Test func givenOptionsKeepEveryLayer() throws {
        let given = [("clients", "10"), ("layer", "name=a"), ("layer", "name=b,max-attempts=2")]
        let options = try ParsedOptions(command: "simulate", specs: SimulateCommand.specs, given: given)
        let command = try SimulateCommand(options)
        #expect(command.scenarios[0].layers.map(\.name) == ["a", "b"])
        #expect(command.scenarios[0].layers[1].policy.maxAttempts == 2)
    }

    /// tune writes each searched layer key into its layer's SPEC.
    @Test func tuneFoldsLayerKeysIntoTheirLayers() {
        let folded = TuneCommand.foldingKeys([
            ("layer", "name=a"), ("clients", "10"), ("layer", "name=b"), ("layer2.max-attempts", "3"),
            ("layer1.base", "20ms"),
        ])
        #expect(folded.map(\.value) == ["name=a,base=20ms", "10", "name=b,max-attempts=3"])
    }
}
