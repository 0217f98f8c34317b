import Foundation
import BackoffPolicies

/// One swept option and the values it takes, expanded from a list and/or ranges.
///
/// ```
/// --multiplier 1.5,2,3        a list
/// --clients 10..190:10        an arithmetic range: 10, 20, ..., 190 (the end is included when hit)
/// --base 10ms..1s*10          a geometric range: 10ms, 100ms, 1s
/// --max-attempts 3,5..9:2     lists may mix values and ranges: 3, 5, 7, 9
/// --jitter all                none, full, equal, decorrelated
/// ```
/// Ranges are for numeric options (durations, numbers, counts); named options (jitter, schedule,
/// server, generator) take lists. Each value is kept as text and parsed by the swept command itself,
/// so a value is valid in a sweep exactly when it is valid in the single command.
struct SweepAxis: Equatable {
    let spec: OptionSpec
    let values: [String]

    /// The column this axis adds to the sweep's table: `sweep_<option>`, with `_s` for durations.
    var columnName: String {
        "sweep_" + spec.name.replacingHyphens + (spec.kind == .duration ? "_s" : "")
    }

    /// The canonical text of a value (durations in seconds, numbers in shortest form), as written in
    /// the axis column and used to match rows when resuming.
    func canonical(_ value: String) -> String { SweepAxis.canonical(value, of: spec) }

    static func canonical(_ value: String, of spec: OptionSpec) -> String {
        switch spec.kind {
        case .duration:
            if value == "none" { return "inf" }
            return ValueParser.duration(value).map { CSVFormat.seconds($0) } ?? value
        case .number:
            return ValueParser.number(value).map { CSVFormat.number($0) } ?? value
        case .count:
            return ValueParser.integer(value).map(String.init) ?? value
        case .serverModel:
            return ServerSpec.model(value).map(ServerSpec.text) ?? value
        case .flag, .text:
            return value
        }
    }

    /// The largest grid a sweep runs without `--force`.
    static let pointLimit = 10_000_000

    /// Expands `text` for `spec`, or throws a usage error that quotes it and the accepted form.
    init(spec: OptionSpec, text: String, command: String) throws(CommandLineError) {
        self.spec = spec
        if spec.name == "jitter" && text == "all" {
            values = Jitter.allModes.map(\.name)
            return
        }
        func invalid(_ reason: String) -> CommandLineError {
            .usage("Invalid list or range '\(text)' for '\(spec.usage)': \(reason)", command: command)
        }
        guard let items = ValueParser.list(text) else { throw invalid("an item is empty; expected values separated by commas") }
        var values: [String] = []
        for item in items {
            guard item.contains("..") else {
                values.append(item)
                continue
            }
            guard [.duration, .number, .count].contains(spec.kind) else {
                throw invalid("--\(spec.name) takes a list, not a range")
            }
            values += try Self.expand(range: item, kind: spec.kind, invalid: invalid)
            guard values.count <= Self.pointLimit else { throw invalid("more than \(Self.pointLimit) values") }
        }
        var seen = Set<String>()
        for value in values where !seen.insert(SweepAxis.canonical(value, of: spec)).inserted {
            throw invalid("'\(value)' comes twice; expected each value once")
        }
        self.values = values
    }

    /// `A..B:S` (arithmetic, S > 0) or `A..B*F` (geometric, F > 1), A <= B, in the option's kind.
    private static func expand(
        range: String, kind: OptionKind, invalid: (String) -> CommandLineError
    ) throws(CommandLineError) -> [String] {
        let form = kind == .duration ? "A..B:STEP or A..B*FACTOR, e.g. 10ms..100ms:10ms or 10ms..1s*10"
            : "A..B:STEP or A..B*FACTOR, e.g. 10..190:10 or 1..1000*10"
        let parts = range.components(separatedBy: "..")
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw invalid("expected \(form)") }
        let geometric = parts[1].contains("*")
        let tail = parts[1].split(separator: geometric ? "*" : ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard tail.count == 2, !tail[1].isEmpty else { throw invalid("a range needs a step (:STEP) or a factor (*FACTOR); expected \(form)") }
        let (startText, endText, stepText) = (parts[0], String(tail[0]), String(tail[1]))

        // Work in integers where the kind allows it (nanoseconds, counts), so steps add up exactly.
        let parse: (String) -> Double?
        switch kind {
        case .duration: parse = { ValueParser.duration($0).map { $0.nanoseconds } }
        case .number: parse = ValueParser.number
        default: parse = { ValueParser.integer($0).map(Double.init) }
        }
        guard let start = parse(startText), let end = parse(endText) else { throw invalid("expected \(form)") }
        guard start <= end else { throw invalid("the range runs backwards (\(startText) > \(endText)); expected A <= B in \(form)") }

        var numbers: [Double] = []
        if geometric {
            guard let factor = ValueParser.number(stepText), factor > 1 else { throw invalid("the factor must be a number > 1") }
            guard start > 0 else { throw invalid("a geometric range must start above 0") }
            var value = start
            while value <= end * (1 + 1e-12) {
                numbers.append(value)
                guard numbers.count <= pointLimit else { throw invalid("more than \(pointLimit) values") }
                value *= factor
            }
        } else {
            let step: Double
            if kind == .number {
                guard let s = ValueParser.number(stepText) else { throw invalid("the step must be a number, e.g. :0.5") }
                step = s
            } else {
                guard let s = parse(stepText) else { throw invalid("the step must be of the same kind as the ends; expected \(form)") }
                step = s
            }
            guard step > 0 else { throw invalid("the step must be greater than 0") }
            let count = ((end - start) / step * (1 + 1e-12)).rounded(.down) + 1
            guard count <= Double(pointLimit) else { throw invalid("\(Int(count)) values, more than \(pointLimit)") }
            numbers = (0..<Int(count)).map { start + Double($0) * step }
        }
        switch kind {
        case .duration:
            return numbers.map { Duration.nanoseconds(Int64($0.rounded())).unitText }
        case .number:
            // Round away the noise of start + i·step at the precision the user wrote.
            let written = [startText, stepText]
            guard !geometric, !written.contains(where: { $0.lowercased().contains("e") }) else {
                return numbers.map { CSVFormat.number($0) }
            }
            let decimals = written.map { $0.split(separator: ".").dropFirst().first?.count ?? 0 }.max() ?? 0
            let scale = pow10(decimals)
            return numbers.map { CSVFormat.number(($0 * scale).rounded() / scale) }
        default:
            return numbers.map { String(Int($0.rounded())) }
        }
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }
}

extension String {
    var replacingHyphens: String { String(map { $0 == "-" ? "_" : $0 }) }
}
