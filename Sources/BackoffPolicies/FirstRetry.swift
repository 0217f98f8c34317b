/// How the wait before a request's first retry is chosen, when a library treats it apart from the
/// others.
///
/// ```
/// jittered    the jitter mode's draw from e_1's window, as every other retry (the default)
/// unjittered  exactly e_1, no draw (grpc-go's connection backoff: 1 s, then 1.6 s ± 20 %, ...)
/// immediate   0, no draw; retry k >= 2 waits as the policy says for k (urllib3: 0, then
///             backoff_factor 2^(k-1))
/// ```
/// Neither of the last two draws a uniform for the first retry, so a request's random stream starts
/// with its second wait. Both need waits drawn independently of each other (every mode but the
/// decorrelated chains and polly-v2).
public enum FirstRetry: String, CaseIterable, Hashable, Sendable {
    case jittered, unjittered, immediate
}
