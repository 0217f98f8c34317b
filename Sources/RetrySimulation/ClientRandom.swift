import BackoffPolicies
import Stochastics

/// One client's stream of a ``ClientStreams``, as the policies' source of uniforms.
struct ClientRandom: UniformSource {
    let streams: ClientStreams
    let client: Int

    @inline(__always)
    mutating func nextUniform() -> Double { streams.uniform(client) }
}
