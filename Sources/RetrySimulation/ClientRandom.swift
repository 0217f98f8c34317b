import BackoffPolicies
import Stochastics

/// One client's stream of a `ClientStreams`, as the policies' source of uniforms.
/// It points at the client's state (no reference to count per construction); the streams must
/// outlive it, as they do in the run that owns both.
struct ClientRandom: UniformSource {
    let state: UnsafeMutablePointer<Taus2>

    init(streams: ClientStreams, client: Int) { state = streams.state(of: client) }

    @inline(__always)
    mutating func nextUniform() -> Double { state.pointee.uniform() }
}
