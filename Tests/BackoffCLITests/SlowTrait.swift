import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A suite of tens of seconds (serially, on a 2-core machine): `scripts/test --quick` skips it.
    static var slow: Self {
        .disabled(if: ProcessInfo.processInfo.environment["BACKOFF_QUICK_TESTS"] == "1", "slow: --quick skips it")
    }
}
