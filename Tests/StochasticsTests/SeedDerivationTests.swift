import Stochastics
import Testing

@Suite struct SeedDerivationTests {
    /// SplitMix64 seeded with 0 first outputs 0xE220A8397B1DCDAF (the published reference sequence:
    /// state += 0x9E3779B97F4A7C15, then the finaliser), which is stream 0 of root 0.
    @Test func streamZeroOfRootZeroIsSplitMix64sFirstOutput() {
        #expect(SeedDerivation.streamSeed(root: 0, stream: 0) == 0xE220_A839_7B1D_CDAF)
        #expect(SeedDerivation.streamSeed(root: 0, stream: 1) == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func streamsAreDistinctAndNeverZero() {
        var seen = Set<UInt64>()
        for root: UInt64 in [0, 1, 2015, .max] {
            for stream: UInt64 in 0..<1000 {
                let seed = SeedDerivation.streamSeed(root: root, stream: stream)
                #expect(seed != 0)
                seen.insert(seed)
            }
        }
        #expect(seen.count == 4000)
    }
}
