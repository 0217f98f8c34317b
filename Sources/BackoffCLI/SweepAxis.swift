import BackoffPolicies
import Foundation

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
            return ServerSpec.value(value).map(ServerSpec.print) ?? value
        case .flag, .text:
            return value
        }
    }

    /// The largest grid a sweep runs without `--force`.
    static let pointLimit = 10_000_000

    /// Expands `text` for `spec`, or throws a usage error that quotes it and the accepted form.
    /// - Parameter limit: the most values the axis may take (the fuzz target sets a small one, so an
    ///   input of a few bytes cannot ask for ten million values).
    init(spec: OptionSpec, text: String, command: String, limit: Int = pointLimit) throws(CommandLineError) {
        self.spec = spec
        if spec.name == PolicyOptions.jitterName && text == "all" {
            values = Jitter.allModes.map(\.name)
            return
        }
        func invalid(_ reason: String) -> CommandLineError {
            .usage("Invalid list or range '\(text.quotedInMessage)' for '\(spec.usage)': \(reason)", command: command)
        }
        guard let items = ValueParser.list(text) else {
            throw invalid("an item is empty; expected values separated by commas")
        }
        var values: [String] = []
        // Two values are the same point when they have the same canonical text, i.e. parse to the
        // same number (a duration's in nanoseconds): compared as numbers (see ``Key``), so a range
        // of millions of values is checked without parsing and formatting each again.
        var seen = Set<Key>()
        func add(_ value: String, _ key: Key) throws(CommandLineError) {
            guard seen.insert(key).inserted else { throw invalid("'\(value)' comes twice; expected each value once") }
            values.append(value)
        }
        for item in items {
            guard item.contains("..") else {
                try add(item, Self.key(item, of: spec))
                continue
            }
            guard [.duration, .number, .count].contains(spec.kind) else {
                throw invalid("--\(spec.name) takes a list, not a range")
            }
            let expanded = try Self.expand(
                range: item, kind: spec.kind, limit: limit, after: values.count, invalid: invalid)
            seen.reserveCapacity(seen.count + expanded.count)
            for (value, key) in expanded { try add(value, key) }
            guard values.count <= limit else { throw invalid("more than \(limit) values") }
        }
        self.values = values
    }

    /// What makes two values of an axis the same point: the whole number they parse to (a
    /// duration's nanoseconds, a count), the number (a decimal option's), or the canonical text of
    /// a value that does not parse (so an invalid "3" for a duration is reported as invalid at its
    /// point, not as a second 3 s beside 3000ms).
    enum Key: Hashable {
        case whole(Int64)
        case number(Double)
        case text(String)
    }

    /// The key of `value`.
    static func key(_ value: String, of spec: OptionSpec) -> Key {
        switch spec.kind {
        case .duration, .count:
            if let whole = whole(value, kind: spec.kind) { return .whole(whole) }
        case .number:
            // -0 and 0 are one point.
            if let number = ValueParser.number(value) { return .number(number == 0 ? 0 : number) }
        case .serverModel, .flag, .text:
            break
        }
        return .text(canonical(value, of: spec))
    }

    /// A duration's nanoseconds or a count, exactly; `nil` for text of another form.
    private static func whole(_ text: String, kind: OptionKind) -> Int64? {
        kind == .duration ? ValueParser.duration(text)?.wholeNanoseconds : ValueParser.integer(text).map(Int64.init)
    }

    /// `A..B:S` (arithmetic, S > 0) or `A..B*F` (geometric, F > 1), A <= B, in the option's kind.
    /// Durations and counts step in whole numbers (nanoseconds, counts), exactly; decimal numbers
    /// in floating point, rounded to the digits written. Nothing is converted before the count of
    /// values is known to be within `limit`.
    /// - Returns: each value's text and its key.
    private static func expand(
        range: String, kind: OptionKind, limit: Int, after earlier: Int, invalid: (String) -> CommandLineError
    ) throws(CommandLineError) -> [(text: String, key: Key)] {
        let form =
            kind == .duration
            ? "A..B:STEP or A..B*FACTOR, e.g. 10ms..100ms:10ms or 10ms..1s*10"
            : "A..B:STEP or A..B*FACTOR, e.g. 10..190:10 or 1..1000*10"
        let parts = range.components(separatedBy: "..")
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw invalid("expected \(form)") }
        let geometric = parts[1].contains("*")
        let tail = parts[1].split(separator: geometric ? "*" : ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard tail.count == 2, !tail[1].isEmpty else {
            throw invalid("a range needs a step (:STEP) or a factor (*FACTOR); expected \(form)")
        }
        let (startText, endText, stepText) = (parts[0], String(tail[0]), String(tail[1]))
        let room = limit - earlier
        func tooMany(_ counted: String) -> CommandLineError {
            invalid(
                earlier == 0
                    ? "\(counted) values, more than \(limit)"
                    : "\(counted) values after \(earlier), more than \(limit) in all")
        }

        if kind == .number {
            guard let start = ValueParser.number(startText), let end = ValueParser.number(endText) else {
                throw invalid("expected \(form)")
            }
            guard start <= end else {
                throw invalid("the range runs backwards (\(startText) > \(endText)); expected A <= B in \(form)")
            }
            var numbers: [Double] = []
            if geometric {
                guard let factor = ValueParser.number(stepText), factor > 1 else {
                    throw invalid("the factor must be a number > 1")
                }
                guard start > 0 else { throw invalid("a geometric range must start above 0") }
                var value = start
                while value <= end * (1 + 1e-12) {
                    numbers.append(value)
                    guard numbers.count <= room else { throw invalid("more than \(limit) values") }
                    value *= factor
                }
            } else {
                guard let step = ValueParser.number(stepText) else {
                    throw invalid("the step must be a number, e.g. :0.5")
                }
                guard step > 0 else { throw invalid("the step must be greater than 0") }
                let count = ((end - start) / step * (1 + 1e-12)).rounded(.down) + 1
                // Also false for an infinite count.
                guard count <= Double(room) else { throw tooMany(Int64(exactly: count).map(String.init) ?? "\(count)") }
                numbers = (0..<Int(count)).map { start + Double($0) * step }
            }
            // Round away the noise of start + i·step at the precision the user wrote.
            let written = [startText, stepText]
            guard !geometric, !written.contains(where: { $0.lowercased().contains("e") }) else {
                return numbers.map { (CSVFormat.number($0), .number($0 == 0 ? 0 : $0)) }
            }
            let decimals = written.map { $0.split(separator: ".").dropFirst().first?.count ?? 0 }.max() ?? 0
            let scale = pow10(decimals)
            return numbers.map {
                let value = ($0 * scale).rounded() / scale
                return (CSVFormat.number(value), .number(value == 0 ? 0 : value))
            }
        }

        // Durations (in nanoseconds) and counts: whole numbers, at most 2^62 and Int.max.
        guard let start = whole(startText, kind: kind), let end = whole(endText, kind: kind) else {
            throw invalid("expected \(form)")
        }
        guard start <= end else {
            throw invalid("the range runs backwards (\(startText) > \(endText)); expected A <= B in \(form)")
        }
        var wholes: [Int64] = []
        if geometric {
            guard let factor = ValueParser.number(stepText), factor > 1 else {
                throw invalid("the factor must be a number > 1")
            }
            guard start > 0 else { throw invalid("a geometric range must start above 0") }
            var value = Double(start)
            while value <= Double(end) * (1 + 1e-12) {
                // Rounded to whole units; a value rounded past the end (or past Int64) ends the range.
                guard let rounded = Int64(exactly: value.rounded()), rounded <= end else { break }
                wholes.append(rounded)
                guard wholes.count <= room else { throw invalid("more than \(limit) values") }
                value *= factor
            }
        } else {
            guard let step = whole(stepText, kind: kind) else {
                throw invalid("the step must be of the same kind as the ends; expected \(form)")
            }
            guard step > 0 else { throw invalid("the step must be greater than 0") }
            let steps = (end - start) / step  // end - start >= 0 fits: both are >= 0
            guard steps < room else { throw tooMany(steps < .max ? String(steps + 1) : "\(UInt64(steps) + 1)") }
            let count = steps + 1
            wholes = (0..<Int64(count)).map { start + $0 * step }
        }
        return wholes.map { value in
            (kind == .duration ? Duration.nanoseconds(value).unitText : String(value), .whole(value))
        }
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }
}

extension String {
    var replacingHyphens: String { String(map { $0 == "-" ? "_" : $0 }) }
}
