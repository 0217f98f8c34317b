import BackoffPolicies
import Stochastics

/// The numbered random streams of one table row, all derived from its root seed with
/// `SeedDerivation/streamSeed(root:stream:)`: one per jitter mode, so a mode draws the same numbers
/// whichever other modes run beside it, and one for the arrival times that every mode shares.
///
/// ```
/// stream 0  jitter none            stream 5  jitter proportional (every F)
/// stream 1  jitter full            stream 6  jitter additive (every D)
/// stream 2  jitter equal           stream 7  jitter decorrelated-monotone
/// stream 3  jitter decorrelated    stream 8  jitter polly-v2
/// stream 4  arrival times (simulate)
/// ```
/// A mode's stream does not depend on its parameter or cap mode, so a sweep over F, D or the cap
/// mode compares its points on common random numbers.
public enum RandomStream {
    /// The stream of a jitter mode.
    public static func index(of jitter: Jitter) -> UInt64 {
        jitter.streamIndex
    }

    /// The stream of the arrival times, shared by every mode of a row.
    public static let arrivals: UInt64 = 4

    /// The seed of jitter mode `jitter`'s stream under `root`.
    public static func seed(root: UInt64, jitter: Jitter) -> UInt64 {
        SeedDerivation.streamSeed(root: root, stream: index(of: jitter))
    }

    /// The seed of the arrival-time stream under `root`.
    public static func arrivalSeed(root: UInt64) -> UInt64 {
        SeedDerivation.streamSeed(root: root, stream: arrivals)
    }
}
