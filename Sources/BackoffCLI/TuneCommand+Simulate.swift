import Foundation
import RetrySimulation

/// How `tune` names its columns and runs a candidate: the candidate's values as `simulate`'s options.
extension TuneCommand {
    /// `name` when it is a numeric column of simulate; otherwise why not, with the closest name.
    static func numericColumn(_ name: String) throws(InvalidValue) -> String {
        let numeric = Set(SimulateCommand.table.filter { !$0.holdsText }.map(\.name))
        guard numeric.contains(name) else {
            if SimulateCommand.table.contains(where: { $0.name == name }) {
                throw InvalidValue("'\(name)' is not a numeric column")
            }
            let hint = Suggestion.closest(to: name, among: numeric.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            throw InvalidValue("unknown column '\(name.quotedInMessage)'" + hint)
        }
        return name
    }

    /// An option's value, by the option's name.
    typealias NamedValue = (name: String, value: String)

    /// The simulate command of `given`, through simulate's own declarations (the sweep's path: no
    /// argument list to write and lex again); a usage error names the candidate.
    static func command(_ given: [NamedValue]) throws(CommandLineError) -> SimulateCommand {
        let given = foldingLayerKeys(given)
        do {
            let options = try ParsedOptions(command: SimulateCommand.name, specs: SimulateCommand.specs, given: given)
            return try SimulateCommand(options)
        } catch {
            guard case .usage(let message, _) = error else { throw error }
            throw .usage("\(message) (in the candidate \(describe(given)))", command: name)
        }
    }

    /// `given` with each searched layer key (`layer2.max-attempts=3`) written into its layer's
    /// SPEC (`--layer ...,max-attempts=3`), so the candidate's layers parse as a command line's.
    static func foldingLayerKeys(_ given: [NamedValue]) -> [NamedValue] {
        var folded = given.filter { TuneSearchSpace.layerKey($0.name) == nil }
        let layers = folded.indices.filter { folded[$0].name == LayerOptions.layer.name }
        for option in given {
            guard let (layer, key) = TuneSearchSpace.layerKey(option.name) else { continue }
            let index = layers[layer - 1]  // checked against the layers given when tune starts
            folded[index].value += ",\(key)=\(option.value)"
        }
        return folded
    }

    /// `given` as a command line would say it, for messages.
    static func describe(_ given: [NamedValue]) -> String {
        given.flatMap { option in
            SimulateCommand.specs.first { $0.name == option.name }?.isFlag == true
                ? ["--\(option.name)"] : ["--\(option.name)", option.value]
        }.joined(separator: " ")
    }

    /// A simulate run of `given`: its one row, by column.
    static func simulate(_ given: [NamedValue]) throws(CommandLineError) -> [String: String] {
        let table = try command(given).run()
        return Dictionary(uniqueKeysWithValues: zip(table.header, table.rows[0]))
    }
}
