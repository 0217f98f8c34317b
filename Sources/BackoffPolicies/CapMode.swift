/// Where a policy applies its cap c: before the jitter or after it.
///
/// ```
/// nominal   the window is built from the capped nominal wait min(c, e_k), then drawn from:
///           full U(0, min(c, e_k)); proportional U((1-F) min(c, e_k), (1+F) min(c, e_k)), which
///           can exceed c; decorrelated U(b, min(c, r s)) (Polly Contrib)
/// clamp     the draw comes from the uncapped window, then min(c, draw): a share of the waits
///           equals c exactly, and clients that retry at the cap retry together
///           (Envoy, smithy-swift, resilience4j, Polly v8's MaxDelay, Tenacity; the 2015 post's
///           decorrelated jitter)
/// ```
/// Without a cap the two agree. Each ``Jitter`` mode has a ``Jitter/defaultCapMode``.
public enum CapMode: String, CaseIterable, Hashable, Sendable {
    case nominal
    case clamp
}
