import Foundation
import Retrying
import Testing

@testable import BackoffCLI

/// Every input of the fuzz corpus (Tests/Fuzz/Corpus/TARGET: the seeds and every crash scripts/fuzz
/// has found, saved as crash-*) replayed through its target, within a time limit, with the outcome
/// committed for it in Tests/Fuzz/Expected/TARGET.tsv: the value each parser made of it, or the
/// error it gave. A crash found by fuzzing stays a regression test here, and an input without an
/// expectation fails until one is committed.
///
/// After a deliberate change of a parser's result or message, rewrite the expectations with
/// `BACKOFF_RECORD_FUZZ_EXPECTATIONS=1 swift test --filter FuzzCorpusTests` and review the diff.
@Suite struct FuzzCorpusTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")
    static let corpus = fuzz.appendingPathComponent("Corpus")
    static let expected = fuzz.appendingPathComponent("Expected")
    /// A replayed input's limit in the debug build (the fuzzer's own is 10 s in the sanitised one).
    static let timeLimit = Duration.seconds(2)

    static func inputs(_ target: String) -> [(name: String, path: String)] {
        let folder = corpus.appendingPathComponent(target).path
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.sorted().map { ($0, "\(folder)/\($0)") }
    }

    /// An outcome on one line of a TSV file: backslashes, tabs and line breaks escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }

    /// The committed outcomes of `target`, by input file name.
    static func expectations(_ target: String) -> [String: String] {
        let path = expected.appendingPathComponent("\(target).tsv").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            if fields.count == 2 { result[String(fields[0])] = String(fields[1]) }
        }
        return result
    }

    @Test func everyTargetHasASeedCorpus() {
        for target in FuzzTargets.names {
            #expect(!Self.inputs(target).isEmpty, "no seeds for \(target)")
        }
    }

    @Test(arguments: FuzzTargets.names)
    func everyInputGivesItsCommittedOutcomeInTime(target: String) throws {
        let record = ProcessInfo.processInfo.environment["BACKOFF_RECORD_FUZZ_EXPECTATIONS"] == "1"
        let expectations = Self.expectations(target)
        var recorded: [String] = []
        for (name, path) in Self.inputs(target) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let clock = ContinuousClock()
            var outcome = ""
            let elapsed = clock.measure { outcome = Self.escaped(FuzzTargets.outcome(target, data)) }
            #expect(elapsed < Self.timeLimit, "\(target)/\(name) took \(elapsed), more than \(Self.timeLimit)")
            recorded.append("\(name)\t\(outcome)")
            guard !record else { continue }
            let expected = try #require(
                expectations[name],
                "\(target)/\(name) has no expected outcome in Tests/Fuzz/Expected/\(target).tsv; it gives: \(outcome)")
            #expect(outcome == expected, "\(target)/\(name)")
        }
        if record {
            try FileManager.default.createDirectory(at: Self.expected, withIntermediateDirectories: true)
            try (recorded.joined(separator: "\n") + "\n")
                .write(to: Self.expected.appendingPathComponent("\(target).tsv"), atomically: true, encoding: .utf8)
        }
    }

    /// The crash fuzzing found: an HTTP date in the year 4030 overflowed the conversion to nanoseconds.
    @Test func aRetryAfterDateCenturiesAheadWaitsTheLongestDelay() throws {
        let longest = Duration.seconds(RetryAfterHeader.longestDelaySeconds)
        #expect(try RetryAfterHeader.delay("Wed, 21 Oct 4030 07:28:00 GMT", now: 1_764_547_200) == longest)
        #expect(try RetryAfterHeader.delay("99999999999999999", now: 0) == longest)
        #expect(try RetryAfterHeader.delay("120", now: 0) == .seconds(120))
    }

    /// The trap CI's fuzzing found: a range of 4.5 × 10^33 values counted in a Double converted to Int.
    @Test func aRangeOfAstronomicallyManyValuesIsRefusedByCount() {
        let outcome = FuzzTargets.outcome("values", Data("0.3..9e33:2".utf8))
        #expect(outcome.contains("axis multiplier=refused: Invalid list or range '0.3..9e33:2'"), "\(outcome)")
        #expect(outcome.contains("values, more than 10000"), "\(outcome)")
    }
}
