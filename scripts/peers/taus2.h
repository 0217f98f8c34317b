/* GSL's taus2 generator for the C peers (herd.c, waits.c): L'Ecuyer's combined Tausworthe
 * generator with GSL's seeding, so a peer draws as backoff's streams do. */
#ifndef BACKOFF_PEERS_TAUS2_H
#define BACKOFF_PEERS_TAUS2_H
#include <stdint.h>

typedef struct { uint64_t s1, s2, s3; } taus2;

static inline uint32_t taus2_next(taus2 *t) {
#define TAUS(s, a, b, c, d) ((((s & c) << d) & 0xffffffffULL) ^ ((((s << a) & 0xffffffffULL) ^ s) >> b))
    t->s1 = TAUS(t->s1, 13, 19, 4294967294ULL, 12);
    t->s2 = TAUS(t->s2, 2, 25, 4294967288ULL, 4);
    t->s3 = TAUS(t->s3, 3, 11, 4294967280ULL, 17);
    return (uint32_t)(t->s1 ^ t->s2 ^ t->s3);
}

static void taus2_seed(taus2 *t, uint64_t s) {
#define LCG(n) ((69069 * (n)) & 0xffffffffULL)
    if (s == 0) s = 1;
    t->s1 = LCG(s); if (t->s1 < 2) t->s1 += 2;
    t->s2 = LCG(t->s1); if (t->s2 < 8) t->s2 += 8;
    t->s3 = LCG(t->s2); if (t->s3 < 16) t->s3 += 16;
    for (int i = 0; i < 6; i++) taus2_next(t);
}

static inline double uniform(taus2 *t) { return taus2_next(t) / 4294967296.0; }

#endif
