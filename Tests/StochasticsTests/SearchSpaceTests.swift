import Foundation
import Stochastics
import Testing

/// The space a constrained search explores: its checks, and how a unit coordinate becomes a value.
@Suite struct SearchSpaceTests {
    @Test func refusesWhatItCannotSearch() {
        let bad: [(String, [(name: String, dimension: SearchSpace.Dimension)])] = [
            ("a name twice", [("x", .integer(low: 1, high: 2)), ("x", .choices(["a"]))]),
            ("an empty name", [("", .integer(low: 1, high: 2))]),
            ("high below low", [("x", .continuous(low: 2, high: 1, logarithmic: false, wholeNumbers: false))]),
            ("a log scale from 0", [("x", .continuous(low: 0, high: 1, logarithmic: true, wholeNumbers: false))]),
            ("nan", [("x", .continuous(low: .nan, high: 1, logarithmic: false, wholeNumbers: false))]),
            ("infinity", [("x", .continuous(low: 0, high: .infinity, logarithmic: false, wholeNumbers: false))]),
            ("integers backwards", [("x", .integer(low: 3, high: 2))]),
            ("a span past 2^53", [("x", .integer(low: -1, high: 1 << 53))]),
            ("an overflowing span", [("x", .integer(low: .min, high: .max))]),
            ("no choices", [("x", .choices([]))]),
            ("an empty choice", [("x", .choices(["a", ""]))]),
            ("a choice twice", [("x", .choices(["a", "a"]))]),
        ]
        for (what, dimensions) in bad {
            #expect(throws: SearchSpace.Invalid.self, "\(what)") { try SearchSpace(dimensions) }
        }
        #expect(throws: Never.self) { try SearchSpace([("x", .integer(low: 0, high: 1 << 53))]) }
    }

    @Test func unitCoordinatesBecomeValues() throws {
        let space = try SearchSpace([
            ("base", .continuous(low: 1e7, high: 1e9, logarithmic: true, wholeNumbers: true)),
            ("multiplier", .continuous(low: 1.5, high: 4, logarithmic: false, wholeNumbers: false)),
            ("attempts", .integer(low: 3, high: 5)),
            ("jitter", .choices(["full", "equal"])),
        ])
        #expect(space.numericNames == ["base", "multiplier", "attempts"])
        #expect(space.value("base", at: 0) == .real(1e7) && space.value("base", at: 1) == .real(1e9))
        #expect(space.value("base", at: 0.5) == .real(1e8))  // the geometric middle, in whole nanoseconds
        #expect(space.value("multiplier", at: 0.5) == .real(2.75))
        #expect(space.value("multiplier", at: -3) == .real(1.5) && space.value("multiplier", at: 7) == .real(4))
        // Three equal strata of [0, 1]: [0, 1/3) is 3, [1/3, 2/3) is 4, [2/3, 1] is 5.
        #expect(
            [0, 0.333, 0.334, 0.666, 0.667, 1].map { space.value("attempts", at: $0) }
                == [3, 3, 4, 4, 5, 5].map(SearchValue.integer))
        let candidate = space.candidate(unit: [0, 1, 0.5], choices: ["jitter": "equal"])
        #expect(
            candidate.values == [
                "base": .real(1e7), "multiplier": .real(4), "attempts": .integer(4), "jitter": .choice("equal"),
            ])
        // Coordinates in one stratum make one candidate.
        #expect(candidate == space.candidate(unit: [0, 1, 0.4], choices: ["jitter": "equal"]))
        #expect(space.choiceCombinations == [["jitter": "full"], ["jitter": "equal"]])
        #expect(space.checkpoints.count == 7 && space.checkpoints[0] == [0.5, 0.5, 0.5])
        #expect(space.isVaried)
        #expect(try !SearchSpace([("x", .integer(low: 2, high: 2)), ("y", .choices(["a"]))]).isVaried)
    }
}
