/// How a policy randomises each wait around its nominal value e_k (u is a fresh U(0, 1) draw).
///
/// ```
/// disabled               w_k = e_k
/// full                   w_k = e_k u                          U(0, e_k)
/// equal                  w_k = e_k/2 + e_k/2 u                U(e_k/2, e_k)
/// proportional(F)        w_k = e_k (1 - F + 2 F u)            U((1-F) e_k, (1+F) e_k)
/// upward(F)              w_k = e_k (1 + F u)                  U(e_k, (1+F) e_k)
/// additive(D)            w_k = e_k + D u                      U(e_k, e_k + D)
/// decorrelated(r)        s_0 = b,  w_k = s_k = U(b, r s_(k-1))
/// decorrelatedMonotone(r) w_1 = b,  w_k = U(w_(k-1), r w_(k-1))
/// pollyV2                w_k = (b / 1.4) (g(k-1+u_k) - g(k-2+u_(k-1))),  g(t) = 2^t tanh(√(4t)),  g(before) = 0
/// exponential            w_k = -e_k ln(1 - u)                 Exp(mean e_k)
/// ```
/// The first six and the last randomise a nominal schedule; decorrelated, decorrelatedMonotone and
/// pollyV2 build their own from the base b (they ignore the multiplier). Each family's draws and closed forms live in one file of `Jitter/`
/// (`FullJitter.swift`, ...), registered in `Jitter.visit(_:)`. How the cap c applies is the policy's ``CapMode``: see
/// ``defaultCapMode`` for each mode's rule when none is given.
///
/// - `proportional`: cenkalti/backoff and resilience4j (F = 0.5), gRPC connection backoff (0.2),
///   Polly v8's constant and linear jitter (0.25).
/// - `upward`: Kubernetes' `wait.Jitter` (client-go's `retry.DefaultBackoff`, F = 0.1).
/// - `additive`: Tenacity's `wait_exponential_jitter` (D = 1 s).
/// - `decorrelated`: the AWS Architecture Blog's "decorrelated jitter" (2015); its simulator clamps
///   after the draw, min(c, U(b, r s)); Polly.Contrib.WaitAndRetry's `AwsDecorrelatedJitterBackoff`
///   caps the window instead, U(b, min(c, r s)): cap mode `nominal`.
/// - `decorrelatedMonotone`: Finagle's `Backoff.decorrelatedJittered`: the first wait is b, and each
///   later one is drawn above the previous one, U(s, min(c, r s)), so waits never decrease.
/// - `pollyV2`: Polly v8's exponential backoff with jitter (`DecorrelatedJitterBackoffV2`), with b
///   the median first delay. The waits telescope: n - 1 of them total (b / 1.4) g(n - 2 + u).
/// - `exponential`: a memoryless wait of mean e_k, the retrial queues' model (the "orbit"), under
///   which a capacity server with retries is a Markov chain.
///
/// The case for no jitter is `disabled` rather than `none`, which would clash with `Optional.none`;
/// its command-line name is still `none`.
public enum Jitter: Hashable, Sendable {
    case disabled
    case full
    case equal
    case proportional(fraction: Double)
    case upward(fraction: Double)
    case additive(spread: Duration)
    case decorrelated(factor: Double = 3)
    case decorrelatedMonotone(factor: Double = 3)
    case pollyV2
    case exponential

    /// The four textbook modes with default parameters, in their documented order (`--jitter all`).
    public static let allModes: [Jitter] = [.disabled, .full, .equal, .decorrelated()]

    /// The command-line names, in documented order; `proportional` and `additive` take a parameter
    /// after a colon.
    public static let names = [
        "none", "full", "equal", "proportional:F", "upward:F", "additive:D", "decorrelated",
        "decorrelated-monotone", "polly-v2", "exponential",
    ]

    /// The command-line and CSV name: `none`, `full`, `equal`, `proportional:0.5`, `additive:1s`,
    /// `decorrelated`, `decorrelated-monotone`, `polly-v2` or `exponential`.
    public var name: String {
        switch self {
        case .disabled: "none"
        case .full: "full"
        case .equal: "equal"
        case .proportional(let f): "proportional:\(Self.text(f))"
        case .upward(let f): "upward:\(Self.text(f))"
        case .additive(let d): "additive:\(d.unitText)"
        case .decorrelated: "decorrelated"
        case .decorrelatedMonotone: "decorrelated-monotone"
        case .pollyV2: "polly-v2"
        case .exponential: "exponential"
        }
    }

    /// The mode's name without its parameter: `proportional` for `proportional:0.5`.
    public var family: String {
        switch self {
        case .proportional: "proportional"
        case .upward: "upward"
        case .additive: "additive"
        default: name
        }
    }

    /// Parses a command-line name without a parameter; `factor` is used for the decorrelated modes.
    /// `proportional:F` and `additive:D` are parsed by the command line, which knows durations.
    public init?(name: String, decorrelatedFactor factor: Double = 3) {
        switch name {
        case "none": self = .disabled
        case "full": self = .full
        case "equal": self = .equal
        case "decorrelated": self = .decorrelated(factor: factor)
        case "decorrelated-monotone": self = .decorrelatedMonotone(factor: factor)
        case "polly-v2": self = .pollyV2
        case "exponential": self = .exponential
        default: return nil
        }
    }

    /// True when waits are random draws.
    public var isRandom: Bool { self != .disabled }

    /// The factor r of the decorrelated modes, `nil` for the others.
    public var decorrelatedFactor: Double? {
        switch self {
        case .decorrelated(let r), .decorrelatedMonotone(let r): r
        default: nil
        }
    }

    /// True when a granularity or a first-retry rule may shape the mode's waits: independent waits
    /// drawn from a window (not the decorrelated modes, polly-v2 or exponential).
    public var acceptsWaitShapes: Bool { kernel.takesWaitShapes }

    /// True for the modes that build their own schedule from the base (the decorrelated ones and
    /// polly-v2), which ignore the policy's schedule.
    public var buildsItsOwnSchedule: Bool { kernel.buildsItsOwnSchedule }

    /// The cap rule a mode follows unless told otherwise: the 2015 post's decorrelated jitter and
    /// Polly v8 (`MaxDelay`) clamp after the draw; the others cap the nominal wait (for Finagle's
    /// monotone mode, the window's top) before they draw.
    public var defaultCapMode: CapMode { kernel.defaultCapMode }

    /// The cap modes the mode can follow: every mode both, but polly-v2, which has no nominal wait
    /// to cap and only clamps.
    public var capModes: [CapMode] { kernel.capModes }

    /// The simulation's random stream of the mode: fixed per family, whatever its parameter or cap
    /// mode, so a sweep over F, D or the cap mode compares its points on common random numbers.
    public var streamIndex: UInt64 { kernel.streamIndex }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
