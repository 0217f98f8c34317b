/* backoff's stream seeds for the C peers (contention.c, herd.c): stream `stream` of root seed
 * `root` is SplitMix64 of root + (stream + 1) x the golden ratio's 64 bits, never 0, as
 * SeedDerivation.streamSeed computes it; a client's generator is seeded with its stream's seed. */
#ifndef BACKOFF_PEERS_STREAMS_H
#define BACKOFF_PEERS_STREAMS_H
#include <stdint.h>

static uint64_t stream_seed(uint64_t root, uint64_t stream) {
    uint64_t z = root + (stream + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

#endif
