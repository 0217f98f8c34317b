import Foundation

/// The space a ``ConstrainedSearch`` explores: named dimensions, each a real range (on a
/// logarithmic scale or not), an integer range or a list of choices.
///
/// A point of the space is a ``SearchCandidate``: a unit coordinate in [0, 1] for each numeric
/// dimension (``numericNames``), and one choice for each choice dimension.
public struct SearchSpace: Hashable, Sendable {
    /// One searched quantity.
    public enum Dimension: Hashable, Sendable {
        /// A real range [low, high]. A `logarithmic` one spreads its unit coordinate over
        /// log(value), so it needs 0 < low; a `wholeNumbers` one rounds every value to the nearest
        /// integer (a duration counted in nanoseconds, say).
        case continuous(low: Double, high: Double, logarithmic: Bool, wholeNumbers: Bool)
        /// The integers low...high, the unit interval cut into high − low + 1 equal strata.
        case integer(low: Int, high: Int)
        /// A list of labels, each tried in every combination with the other choices.
        case choices([String])

        /// True when the dimension takes more than one value.
        public var isVaried: Bool {
            switch self {
            case .continuous(let low, let high, _, _): high > low
            case .integer(let low, let high): high > low
            case .choices(let values): values.count > 1
            }
        }
    }

    /// A dimension the space cannot hold, and why.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The dimensions' names, in the order given.
    public let names: [String]
    /// Each dimension, by name.
    public let dimensions: [String: Dimension]

    /// The largest span of an integer dimension, 2^53: its values are then exact in a `Double`.
    public static let largestIntegerSpan = 1 << 53

    /// - Throws: ``Invalid`` for a name given twice or empty, a real range that is not finite with
    ///   low ≤ high (and 0 < low when logarithmic), an integer range with high < low or spanning more
    ///   than ``largestIntegerSpan``, or choices that are empty or repeat a label.
    public init(_ dimensions: [(name: String, dimension: Dimension)]) throws(Invalid) {
        var byName: [String: Dimension] = [:]
        for (name, dimension) in dimensions {
            guard !name.isEmpty else { throw Invalid(description: "a dimension needs a name") }
            guard byName[name] == nil else { throw Invalid(description: "'\(name)' is searched twice") }
            try Self.validate(dimension, name)
            byName[name] = dimension
        }
        names = dimensions.map(\.name)
        self.dimensions = byName
    }

    private static func validate(_ dimension: Dimension, _ name: String) throws(Invalid) {
        switch dimension {
        case .continuous(let low, let high, let logarithmic, _):
            guard low.isFinite, high.isFinite, low <= high, !logarithmic || low > 0 else {
                throw Invalid(
                    description: "'\(name)': a real range needs finite bounds with low <= high"
                        + (logarithmic ? " and 0 < low (a logarithmic scale)" : ""))
            }
        case .integer(let low, let high):
            let (span, overflow) = high.subtractingReportingOverflow(low)
            guard low <= high, !overflow, span <= largestIntegerSpan else {
                throw Invalid(
                    description: "'\(name)': an integer range needs low <= high, at most 2^53 apart")
            }
        case .choices(let values):
            guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
                throw Invalid(description: "'\(name)': an empty choice")
            }
            guard Set(values).count == values.count else {
                throw Invalid(description: "'\(name)': a choice is listed twice")
            }
        }
    }

    /// True when some dimension takes more than one value: a search has something to vary.
    public var isVaried: Bool { dimensions.values.contains(where: \.isVaried) }

    /// The continuous and integer dimensions, in order: the coordinates of the unit cube.
    public var numericNames: [String] {
        names.filter { if case .choices = dimensions[$0]! { false } else { true } }
    }

    /// Every combination of the choice dimensions, the first choice varying slowest (one empty
    /// combination when there are none).
    public var choiceCombinations: [[String: String]] {
        var combinations: [[String: String]] = [[:]]
        for name in names {
            guard case .choices(let values) = dimensions[name]! else { continue }
            combinations = combinations.flatMap { combination in values.map { combination.merging([name: $0]) { $1 } } }
        }
        return combinations
    }

    /// The unit coordinates at which every value of the space can be tried before a search: the
    /// centre, and each numeric dimension at its two ends with the others at the centre.
    public var checkpoints: [[Double]] {
        let centre = numericNames.map { _ in 0.5 }
        var points = [centre]
        for index in centre.indices {
            for end in [0.0, 1.0] {
                var point = centre
                point[index] = end
                points.append(point)
            }
        }
        return points
    }

    /// The value of numeric dimension `name` at unit coordinate `u` (clamped to [0, 1]); a choice
    /// dimension's first choice.
    public func value(_ name: String, at u: Double) -> SearchValue {
        let u = min(1, max(0, u))
        switch dimensions[name]! {
        case .continuous(let low, let high, let logarithmic, let wholeNumbers):
            let x = logarithmic ? exp(log(low) + u * (log(high) - log(low))) : low + u * (high - low)
            return .real(wholeNumbers ? x.rounded() : x)
        case .integer(let low, let high):
            return .integer(min(high, low + Int((u * Double(high - low + 1)).rounded(.down))))
        case .choices(let values):
            return .choice(values[0])
        }
    }

    /// The candidate at unit coordinates `unit` (one per ``numericNames``) with `choices` (one
    /// per choice dimension; a missing one takes its first choice).
    public func candidate(unit: [Double], choices: [String: String]) -> SearchCandidate {
        precondition(unit.count == numericNames.count, "one unit coordinate per numeric dimension")
        var values = choices.mapValues(SearchValue.choice)
        for (name, u) in zip(numericNames, unit) { values[name] = value(name, at: u) }
        for name in names where values[name] == nil { values[name] = value(name, at: 0) }
        return SearchCandidate(values: values, unit: unit, choices: choices)
    }
}
