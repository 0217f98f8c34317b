import Foundation
import Stochastics

/// `tune --search 'base=10ms..1s,multiplier=1.5..4,max-attempts=3..12,jitter=full|equal|decorrelated'`:
/// the options `tune` varies, read into a ``SearchSpace`` of Stochastics: each a continuous range
/// (durations, in whole nanoseconds and on a log scale when the range spans a factor of 10 or more;
/// numbers), an integer range (counts) or a list of choices (`a|b|c`).
struct TuneSearchSpace {
    /// The space, each dimension named by the option it varies.
    let space: SearchSpace
    /// The dimensions that are durations, counted in nanoseconds.
    let durations: Set<String>

    static let form =
        "comma-separated NAME=A..B (a range) or NAME=a|b|c (choices), e.g. "
        + "'base=10ms..1s,multiplier=1.5..4,max-attempts=3..12,jitter=full|equal|decorrelated'"

    /// Parses `text` against the options of `specs`.
    init(_ text: String, specs: [OptionSpec]) throws(InvalidValue) {
        var dimensions: [(name: String, dimension: SearchSpace.Dimension)] = []
        var durations: Set<String> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw InvalidValue("'\(item)' is not NAME=RANGE or NAME=a|b|c")
            }
            let (name, value) = (parts[0], parts[1])
            if let (layer, key) = Self.layerKey(name) {
                guard layer >= 1,
                    let spec = LayerOptions.keySpecs(defaultJitter: "full").first(where: { $0.name == key }),
                    !Self.unsearchedLayerKeys.contains(key)
                else {
                    throw InvalidValue(
                        "'\(name)' is not a layer key tune can search (LAYER.KEY with LAYER from layer1, and KEY one of "
                            + Self.searchableLayerKeys.joined(separator: ", ") + ")")
                }
                guard !dimensions.contains(where: { $0.name == name }) else {
                    throw InvalidValue("'\(name)' is searched twice")
                }
                dimensions.append((name, try Self.dimension(value, spec: spec, as: name)))
                if spec.kind == .duration { durations.insert(name) }
                continue
            }
            if let (option, key) = Self.specKey(name, specs: specs) {
                guard !dimensions.contains(where: { $0.name == name }) else {
                    throw InvalidValue("'\(name)' is searched twice")
                }
                let kind = Self.inferredKind(value)
                dimensions.append((name, try Self.dimension(value, kind: kind, name: "\(option).\(key)")))
                if kind == .duration { durations.insert(name) }
                continue
            }
            guard let spec = specs.first(where: { $0.name == name }), !TuneCommand.fixedOnly.contains(name) else {
                let hint =
                    Suggestion.closest(to: name, among: TuneCommand.searchable).map { " (did you mean '\($0)'?)" } ?? ""
                throw InvalidValue("'\(name)' is not an option tune can search\(hint)")
            }
            guard !dimensions.contains(where: { $0.name == name }) else {
                throw InvalidValue("'\(name)' is searched twice")
            }
            dimensions.append((name, try Self.dimension(value, spec: spec)))
            if spec.kind == .duration { durations.insert(name) }
        }
        do {
            space = try SearchSpace(dimensions)
        } catch {
            throw InvalidValue(error.description)
        }
        self.durations = durations
    }

    /// Throws unless some option takes more than one value (checked after each value is known to
    /// be valid, so a bad choice is named as bad, not as an empty space).
    func requireVaried() throws(InvalidValue) {
        guard space.isVaried else {
            throw InvalidValue("the search space is empty: no option takes more than one value")
        }
    }

    /// `layerK.KEY` as (K, KEY): a key of the Kth `--layer` SPEC; `nil` for another name.
    static func layerKey(_ name: String) -> (layer: Int, key: String)? {
        guard name.hasPrefix("layer"), let dot = name.firstIndex(of: ".") else { return nil }
        let number = name[name.index(name.startIndex, offsetBy: 5)..<dot]
        guard let layer = Int(number), String(layer) == number else { return nil }
        return (layer, String(name[name.index(after: dot)...]))
    }

    /// `OPTION.KEY` as (OPTION, KEY): a key of the spec an option of `specs` takes
    /// (`outlier-detection.count`, `balancer.choices`, `hedge.delay`), folded into the option's
    /// given text for each candidate (``TuneCommand/foldingKeys(_:)``); `nil` for another name.
    static func specKey(_ name: String, specs: [OptionSpec]) -> (option: String, key: String)? {
        guard layerKey(name) == nil, let dot = name.firstIndex(of: ".") else { return nil }
        let (option, key) = (String(name[..<dot]), String(name[name.index(after: dot)...]))
        guard !key.isEmpty, !key.contains(where: { ":=,|".contains($0) }),
            let spec = specs.first(where: { $0.name == option }), spec.kind == .text || spec.kind == .serverModel,
            !TuneCommand.fixedOnly.contains(option)
        else { return nil }
        return (option, key)
    }

    /// What a spec key's range reads as, the bounds' own form deciding: whole numbers are counts,
    /// numbers with a unit durations, the rest numbers (choices take any text).
    static func inferredKind(_ value: String) -> OptionKind {
        let bounds = value.components(separatedBy: "..")
        guard bounds.count == 2 else { return .text }
        if bounds.allSatisfy({ ValueParser.integer($0) != nil }) { return .count }
        if bounds.allSatisfy({ ValueParser.number($0) == nil && ValueParser.duration($0) != nil }) {
            return .duration
        }
        return .number
    }

    /// The layer keys a search leaves alone: a name, and what names a whole policy or a file.
    static let unsearchedLayerKeys: Set<String> = ["name", "preset", "grpc-service-config", "grpc-method"]
    static var searchableLayerKeys: [String] {
        LayerOptions.keySpecs(defaultJitter: "full").map(\.name).filter { !unsearchedLayerKeys.contains($0) }
    }

    private static func dimension(_ value: String, spec: OptionSpec, as shown: String? = nil) throws(InvalidValue)
        -> SearchSpace.Dimension
    {
        do {
            return try dimension(value, spec: spec)
        } catch {
            guard let shown, let detail = error.detail else { throw error }
            throw InvalidValue(detail.replacingOccurrences(of: "'\(spec.name)", with: "'\(shown)"))
        }
    }

    private static func dimension(_ value: String, spec: OptionSpec) throws(InvalidValue) -> SearchSpace.Dimension {
        try dimension(value, kind: spec.kind, name: spec.name)
    }

    /// The dimension of option (or key) `name`, of `kind`, that `value` describes.
    private static func dimension(_ value: String, kind: OptionKind, name: String) throws(InvalidValue)
        -> SearchSpace.Dimension
    {
        if value.contains("..") {
            let bounds = value.components(separatedBy: "..")
            guard bounds.count == 2 else { throw InvalidValue("'\(name)=\(value)': a range is A..B") }
            switch kind {
            case .duration:
                guard let low = ValueParser.duration(bounds[0]), let high = ValueParser.duration(bounds[1]),
                    low > .zero, high >= low
                else {
                    throw InvalidValue(
                        "'\(name)=\(value)': expected DURATION..DURATION, 0 < A <= B, e.g. 10ms..1s")
                }
                let (a, b) = (low.nanoseconds, high.nanoseconds)
                return .continuous(low: a, high: b, logarithmic: b >= 10 * a, wholeNumbers: true)
            case .number:
                guard let low = ValueParser.number(bounds[0]), let high = ValueParser.number(bounds[1]), low.isFinite,
                    high.isFinite,
                    high >= low
                else {
                    throw InvalidValue("'\(name)=\(value)': expected NUMBER..NUMBER with A <= B, e.g. 1.5..4")
                }
                return .continuous(low: low, high: high, logarithmic: false, wholeNumbers: false)
            case .count:
                // Up to 2^53, where a count is exact in a Double (a design point is placed in one).
                guard let low = ValueParser.integer(bounds[0]), let high = ValueParser.integer(bounds[1]), high >= low,
                    high <= Self.largestCount
                else {
                    throw InvalidValue(
                        "'\(name)=\(value)': expected COUNT..COUNT with 0 <= A <= B <= \(Self.largestCount), e.g. 3..12"
                    )
                }
                return .integer(low: low, high: high)
            case .flag, .text, .serverModel:
                throw InvalidValue("'\(name)' takes choices a|b|c, not a range")
            }
        }
        let choices = value.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard !choices.contains(where: \.isEmpty) else {
            throw InvalidValue("'\(name)=\(value)': an empty choice")
        }
        guard Set(choices).count == choices.count else {
            throw InvalidValue("'\(name)=\(value)': a choice is listed twice")
        }
        return .choices(choices)
    }

    /// The space as `--search` takes it: `TuneSearchSpace(text, specs:)` is this space again.
    var text: String {
        space.names.map { name in
            let range: String
            switch space.dimensions[name]! {
            case .continuous(let low, let high, _, _):
                range =
                    durations.contains(name)
                    ? "\(Int64(low))ns..\(Int64(high))ns" : "\(CSVFormat.number(low))..\(CSVFormat.number(high))"
            case .integer(let low, let high): range = "\(low)..\(high)"
            case .choices(let labels): range = labels.joined(separator: "|")
            }
            return "\(name)=\(range)"
        }.joined(separator: ",")
    }

    /// The largest bound of a count's range: 2^53.
    static let largestCount = SearchSpace.largestIntegerSpan

    /// The option text of `value`, the value of dimension `name`.
    func text(_ name: String, _ value: SearchValue) -> String {
        switch value {
        case .real(let x): durations.contains(name) ? "\(Int64(x))ns" : CSVFormat.number(x)
        case .integer(let n): String(n)
        case .choice(let label): label
        }
    }

    /// The candidate's values as option text, by option.
    func texts(_ candidate: SearchCandidate) -> [String: String] {
        Dictionary(uniqueKeysWithValues: candidate.values.map { ($0.key, text($0.key, $0.value)) })
    }

    /// The candidate's values as options, in name order.
    func options(_ candidate: SearchCandidate) -> [(name: String, value: String)] {
        texts(candidate).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
