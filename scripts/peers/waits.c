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

#include "taus2.h"

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
