internal import CGSL
import Stochastics
import Testing

/// The Swift steppers reproduce GSL's generators bit for bit: a million outputs from each of a few
/// seeds, and the first outputs after many derived seeds (the seeding path), compared with
/// `gsl_rng_get` of the same GSL type.
@Suite struct InlineGeneratorTests {
    static let seeds: [UInt64] = [0, 1, 2, 4357, 2015, 0xFFFF_FFFF, 0x1_0000_0000, 0xDEAD_BEEF_CAFE_F00D, .max]

    private func gslOutputs(_ type: UnsafePointer<gsl_rng_type>, seed: UInt64, count: Int) -> [UInt32] {
        let rng = gsl_rng_alloc(type)!
        defer { gsl_rng_free(rng) }
        gsl_rng_set(rng, UInt(seed))
        return (0..<count).map { _ in UInt32(gsl_rng_get(rng)) }
    }

    @Test func taus2MatchesGSLForAMillionOutputs() {
        for seed in [UInt64(2015), 0xDEAD_BEEF_CAFE_F00D] {
            var generator = Taus2(seed: seed)
            let expected = gslOutputs(cgsl_rng_taus2(), seed: seed, count: 1_000_000)
            let mismatch = expected.indices.first { generator.next() != expected[$0] }
            #expect(mismatch == nil, "seed \(seed): first difference at output \(mismatch ?? -1)")
        }
    }

    @Test func taus2SeedsAsGSLDoes() {
        let derived = (0..<2000).map { SeedDerivation.streamSeed(root: 7, stream: $0) }
        for seed in Self.seeds + derived {
            var generator = Taus2(seed: seed)
            let ours = (0..<4).map { _ in generator.next() }
            #expect(ours == gslOutputs(cgsl_rng_taus2(), seed: seed, count: 4), "seed \(seed)")
        }
    }

    /// The warm-up's jump is six steps from any state, not only from seeded ones: 10^5 states of
    /// outputs of a stepper, each component jumped and the whole stepped six times.
    @Test func taus2WarmUpJumpIsSixSteps() {
        var source = Taus2(seed: 11)
        let warmUp = Taus2.WarmUp.sixSteps
        for _ in 0..<100_000 {
            let (s1, s2, s3) = (UInt(source.next()), UInt(source.next()), UInt(source.next()))
            var stepped = Taus2(s1: s1, s2: s2, s3: s3)
            for _ in 0..<6 { _ = stepped.next() }
            let jumped = Taus2(
                s1: warmUp.jump(s1, component: 0), s2: warmUp.jump(s2, component: 1), s3: warmUp.jump(s3, component: 2))
            #expect(jumped == stepped, "state (\(s1), \(s2), \(s3))")
            if jumped != stepped { return }
        }
    }

    @Test func mersenneTwisterMatchesGSLForAMillionOutputs() {
        for seed in [UInt64(2015), 0xDEAD_BEEF_CAFE_F00D] {
            var generator = MersenneTwister(seed: seed)
            let expected = gslOutputs(cgsl_rng_mt19937(), seed: seed, count: 1_000_000)
            let mismatch = expected.indices.first { generator.next() != expected[$0] }
            #expect(mismatch == nil, "seed \(seed): first difference at output \(mismatch ?? -1)")
        }
    }

    @Test func mersenneTwisterSeedsAsGSLDoes() {
        let derived = (0..<200).map { SeedDerivation.streamSeed(root: 7, stream: $0) }
        for seed in Self.seeds + derived {
            var generator = MersenneTwister(seed: seed)
            let ours = (0..<700).map { _ in generator.next() }  // past the first regeneration
            #expect(ours == gslOutputs(cgsl_rng_mt19937(), seed: seed, count: 700), "seed \(seed)")
        }
    }

    @Test func uniformsAreGSLsUniforms() throws {
        for algorithm in [GeneratorAlgorithm.mt19937, .taus2] {
            let reference = try RandomGenerator(algorithm: algorithm, seed: 99)
            var taus = Taus2(seed: 99)
            var twister = MersenneTwister(seed: 99)
            for _ in 0..<10_000 {
                let ours = algorithm == .taus2 ? taus.uniform() : twister.uniform()
                #expect(ours == reference.uniform(), "\(algorithm), seed 99")
            }
        }
    }
}
