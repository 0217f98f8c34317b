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
        let given = foldingKeys(given)
        do {
            let options = try ParsedOptions(command: SimulateCommand.name, specs: SimulateCommand.specs, given: given)
            return try SimulateCommand(options)
        } catch {
            guard case .usage(let message, _) = error else { throw error }
            throw .usage("\(message) (in the candidate \(describe(given)))", command: name)
        }
    }

    /// `given` with each searched key written into what it belongs to, so the candidate parses as
    /// a command line would: a layer key (`layer2.max-attempts=3`) into its layer's SPEC
    /// (`--layer ...,max-attempts=3`), an option's key (`outlier-detection.count=3`) into the
    /// option's spec (`--outlier-detection consecutive-5xx:count=3`).
    static func foldingKeys(_ given: [NamedValue]) -> [NamedValue] {
        func isKey(_ name: String) -> Bool {
            TuneSearchSpace.layerKey(name) != nil || TuneSearchSpace.specKey(name, specs: SimulateCommand.specs) != nil
        }
        var folded = given.filter { !isKey($0.name) }
        let layers = folded.indices.filter { folded[$0].name == LayerOptions.layer.name }
        for option in given {
            if let (layer, key) = TuneSearchSpace.layerKey(option.name) {
                let index = layers[layer - 1]  // checked against the layers given when tune starts
                folded[index].value += ",\(key)=\(option.value)"
            } else if let (name, key) = TuneSearchSpace.specKey(option.name, specs: SimulateCommand.specs),
                let index = folded.firstIndex(where: { $0.name == name })  // checked when tune starts
            {
                folded[index].value += ":\(key)=\(option.value)"
            }
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
