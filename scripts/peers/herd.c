/* Peer of `backoff simulate` (workload B): the straight per-client loop in C that a performance-minded
 * engineer would write for N clients failing at t = 0 against an outage. No event queue (an instant
 * server needs none), integer nanoseconds, per-bucket counts of all attempts and of retries, GSL's
 * taus2 algorithm per client (seeded as backoff seeds its client streams) and the same jitter rules.
 * Prints one JSON line per jitter mode, as the Python peers do.
 *
 * Build: gcc -O2 -o herd herd.c    Run: herd CLIENTS ATTEMPTS OUTAGE_S BASE_S MULTIPLIER CAP_S BUCKET_S */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams.h"
#include "taus2.h"

int main(int argc, char **argv) {
    if (argc != 8) { fprintf(stderr, "usage: herd CLIENTS ATTEMPTS OUTAGE_S BASE_S MULTIPLIER CAP_S BUCKET_S\n"); return 64; }
    long clients = atol(argv[1]);
    int attempts = atoi(argv[2]);
    int64_t outage = (int64_t)(atof(argv[3]) * 1e9), bucket = (int64_t)(atof(argv[7]) * 1e9);
    double base = atof(argv[4]) * 1e9, multiplier = atof(argv[5]), cap = atof(argv[6]) * 1e9;
    double nominal[64];
    for (int k = 0; k < attempts - 1 && k < 64; k++) nominal[k] = fmin(cap, base * pow(multiplier, k));
    /* the longest a session can last: every wait at its largest (decorrelated: at the cap) */
    double longest = 0;
    for (int k = 0; k < attempts - 1; k++) longest += fmax(nominal[k], cap);
    long buckets = (long)(longest / bucket) + 2;
    long *load = malloc(sizeof(long) * buckets), *retry_load = malloc(sizeof(long) * buckets);
    const char *modes[] = {"none", "full", "equal", "decorrelated"};
    for (int mode = 0; mode < 4; mode++) {
        memset(load, 0, sizeof(long) * buckets);
        memset(retry_load, 0, sizeof(long) * buckets);
        long made = 0, successes = 0;
        double waited_total = 0;
        for (long client = 0; client < clients; client++) {
            taus2 rng;
            taus2_seed(&rng, stream_seed(2015 + mode, (uint64_t)client));
            int64_t time = 0, waited = 0;
            double sleep = base;
            for (int attempt = 1;; attempt++) {
                made++;
                load[time / bucket]++;
                if (attempt > 1) retry_load[time / bucket]++;
                if (time >= outage) { successes++; break; }
                if (attempt == attempts) break;
                double e = nominal[attempt - 1], wait;
                switch (mode) {
                case 0: wait = e; break;
                case 1: wait = e * uniform(&rng); break;
                case 2: wait = e / 2 + e / 2 * uniform(&rng); break;
                default: sleep = fmin(cap, base + (3 * sleep - base) * uniform(&rng)); wait = sleep; break;
                }
                int64_t whole = (int64_t)(wait + 0.5);
                time += whole;
                waited += whole;
            }
            waited_total += waited / 1e9;
        }
        long peak = 0;
        for (long b = 0; b < buckets; b++) if (retry_load[b] > peak) peak = retry_load[b];
        printf("{\"jitter\": \"%s\", \"attempts\": %ld, \"successes\": %ld, \"mean_total_wait\": %.17g, \"peak_retry_load\": %ld}\n",
               modes[mode], made, successes, waited_total / clients, peak);
    }
    free(load);
    free(retry_load);
    return 0;
}
