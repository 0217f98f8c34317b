@testable import BackoffCLI
import Foundation
import Retrying
import Testing

/// Every input of the fuzz corpus (Tests/Fuzz/Corpus/TARGET: the seeds and every crash scripts/fuzz
/// has found, saved as crash-*) replayed through its target: none may trap. A crash found by fuzzing
/// stays a regression test here.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    static var inputs: [(target: String, file: String)] {
        FuzzTargets.names.flatMap { target in
            let folder = corpus.appendingPathComponent(target).path
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.sorted().map { (target, "\(folder)/\($0)") }
        }
    }

    @Test func everyTargetHasASeedCorpus() {
        for target in FuzzTargets.names {
            #expect(Self.inputs.contains { $0.target == target }, "no seeds for \(target)")
        }
    }

    @Test func everyInputRunsThroughItsTarget() throws {
        for (target, file) in Self.inputs {
            FuzzTargets.run(target, try Data(contentsOf: URL(fileURLWithPath: file)))
        }
    }

    /// The crash fuzzing found: an HTTP date in the year 4030 overflowed the conversion to nanoseconds.
    @Test func aRetryAfterDateCenturiesAheadWaitsTheLongestDelay() throws {
        let longest = Duration.seconds(RetryAfterHeader.longestDelaySeconds)
        #expect(try RetryAfterHeader.delay("Wed, 21 Oct 4030 07:28:00 GMT", now: 1_764_547_200) == longest)
        #expect(try RetryAfterHeader.delay("99999999999999999", now: 0) == longest)
        #expect(try RetryAfterHeader.delay("120", now: 0) == .seconds(120))
    }
}
