import BackoffPolicies

/// Uniforms in [0, 1) from the system's random number generator: the source for jitter in
/// production, where no two processes should share a stream. (Tests and simulations pass a seeded
/// source instead, so their runs repeat.)
public struct SystemUniforms: UniformSource {
    private var generator = SystemRandomNumberGenerator()

    public init() {}

    public mutating func nextUniform() -> Double {
        Double(generator.next() >> 11) * 0x1p-53  // 53 random bits: every double of [0, 1) on a 2^-53 grid
    }
}
