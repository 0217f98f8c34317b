/* Peer of `backoff waits` (workload A): the straight loop in C a performance-minded engineer would
 * write, the limit as herd.c is the herd's. R runs of one request whose every attempt fails, per
 * jitter mode: draws each wait with GSL's taus2 algorithm (one stream per mode, as a single-threaded
 * loop would), sums the run's total, and keeps the sum and the sum of squares. No quantiles, no
 * closed forms, no CSV: one JSON line per mode with the mean and its standard error, as the numpy
 * peer prints them.
 *
 * Build: gcc -O2 -o waits waits.c -lm    Run: waits RUNS ATTEMPTS BASE_S MULTIPLIER CAP_S */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: waits RUNS ATTEMPTS BASE_S MULTIPLIER CAP_S\n"); return 64; }
    long runs = atol(argv[1]);
    int attempts = atoi(argv[2]);
    double base = atof(argv[3]), multiplier = atof(argv[4]), cap = atof(argv[5]);
    if (runs < 2 || attempts < 1 || attempts > 64) { fprintf(stderr, "waits: RUNS >= 2, ATTEMPTS 1 to 64\n"); return 64; }
    double nominal[64];
    for (int k = 0; k < attempts - 1; k++) nominal[k] = fmin(cap, base * pow(multiplier, k));
    const char *modes[] = {"none", "full", "equal", "decorrelated"};
    for (int mode = 0; mode < 4; mode++) {
        taus2 rng;
        taus2_seed(&rng, 2015 + mode);
        double sum = 0, squares = 0;
        for (long run = 0; run < runs; run++) {
            double total = 0, sleep = base;
            for (int k = 0; k < attempts - 1; k++) {
                double e = nominal[k];
                switch (mode) {
                case 0: total += e; break;
                case 1: total += e * uniform(&rng); break;
                case 2: total += e / 2 + e / 2 * uniform(&rng); break;
                default: sleep = fmin(cap, base + (3 * sleep - base) * uniform(&rng)); total += sleep; break;
                }
            }
            sum += total;
            squares += total * total;
        }
        double mean = sum / runs;
        double variance = fmax(0, (squares - sum * mean) / (runs - 1));
        printf("{\"jitter\": \"%s\", \"mean\": %.17g, \"se\": %.17g}\n", modes[mode], mean, sqrt(variance / runs));
    }
    return 0;
}
