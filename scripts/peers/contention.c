/* Peer of `backoff sweep simulate --server contention` (workload C, the 2015 study): the straight
 * event loop in C that a performance-minded engineer would write with GSL, the limit for the study
 * as herd.c is for the herd. N clients each make one conditional write to a shared item: an attempt
 * reads the item's version, then writes with it, each a round trip of two |N(10 ms, 2 ms)| hops;
 * the write succeeds if no other write succeeded since its read; a failed write waits its backoff
 * and reads again. One binary heap of pending writes (a write's read needs no event: its arrival is
 * known when the attempt leaves), ordered by time and then by scheduling order; GSL's taus2 per
 * client, seeded as backoff seeds its client streams, GSL's ziggurat for the hops.
 *
 * It draws exactly as backoff does (each client's hops and jitter from its own stream, in the
 * order the client meets them), so for the same root seed it makes the same calls and finishes
 * at the same nanosecond: reads "CLIENTS ROOT" lines (backoff's `clients` and `seed` columns) and
 * prints "CLIENTS ROOT CALLS LAST_COMPLETION_NS" for each.
 *
 * Build: gcc -O2 -o contention contention.c -lgsl -lgslcblas -lm
 * Run:   contention STRATEGY < runs   (no-backoff, exponential, full-jitter, equal-jitter, decorrelated)
 * The study's policies: base 10 ms (decorrelated 5 ms, factor 3), multiplier 2, cap 2 s. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams.h"

enum { NO_BACKOFF, EXPONENTIAL, FULL, EQUAL, DECORRELATED };

typedef struct { int64_t time; uint64_t order; int32_t client; } entry;

typedef struct {
    gsl_rng *rng;
    int64_t read;    /* when the read of the attempt in flight arrived, ns */
    int retries;     /* retries so far in this request */
    double previous; /* decorrelated jitter's previous wait, ns */
} client_state;

static int precedes(const entry *a, const entry *b) {
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

/* The least entry leaves; `moving` (if any) takes its place, else the last one does. */
static void replace_top(entry *heap, long *count, const entry *moving) {
    entry item = moving ? *moving : heap[--*count];
    long n = *count, hole = 0;
    for (;;) {
        long child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && precedes(&heap[child + 1], &heap[child])) child++;
        if (!precedes(&heap[child], &item)) break;
        heap[hole] = heap[child];
        hole = child;
    }
    if (n > 0) heap[hole] = item;
}

static void push(entry *heap, long *count, entry item) {
    long child = (*count)++;
    while (child > 0) {
        long parent = (child - 1) / 2;
        if (!precedes(&item, &heap[parent])) break;
        heap[child] = heap[parent];
        child = parent;
    }
    heap[child] = item;
}

static const double hop_mean = 10e6, hop_sd = 2e6;

static int64_t hop(gsl_rng *rng) {
    return (int64_t)(fabs(hop_mean + gsl_ran_gaussian_ziggurat(rng, hop_sd)) + 0.5);
}

int main(int argc, char **argv) {
    const char *names[] = {"no-backoff", "exponential", "full-jitter", "equal-jitter", "decorrelated"};
    int strategy = -1;
    for (int s = 0; argc == 2 && s < 5; s++) if (strcmp(argv[1], names[s]) == 0) strategy = s;
    if (strategy < 0) {
        fprintf(stderr, "usage: contention no-backoff|exponential|full-jitter|equal-jitter|decorrelated < \"CLIENTS ROOT\" lines\n");
        return 64;
    }
    const int stream = strategy == FULL ? 1 : strategy == EQUAL ? 2 : strategy == DECORRELATED ? 3 : 0;
    const double cap = 2e9, base = strategy == DECORRELATED ? 5e6 : 10e6;
    long capacity = 0;
    client_state *clients = NULL;
    entry *heap = NULL;
    long n;
    unsigned long long root;
    while (scanf("%ld %llu", &n, &root) == 2) {
        if (n < 1 || n > INT32_MAX) { fprintf(stderr, "contention: %ld clients (1 to 2^31 - 1)\n", n); return 64; }
        if (n > capacity) {
            clients = realloc(clients, sizeof(client_state) * n);
            heap = realloc(heap, sizeof(entry) * n);
            if (!clients || !heap) { fprintf(stderr, "contention: no memory for %ld clients\n", n); return 1; }
            for (long c = capacity; c < n; c++) clients[c].rng = gsl_rng_alloc(gsl_rng_taus2);
            capacity = n;
        }
        /* The run's seed: backoff derives it from the root with the jitter mode's stream number
         * (none 0, full 1, equal 2, decorrelated 3). Its N first sends take sequence numbers
         * 0 ... N-1 before any write is scheduled. */
        uint64_t run = stream_seed(root, (uint64_t)stream), order = (uint64_t)n;
        long count = 0;
        for (long c = 0; c < n; c++) {
            client_state *client = &clients[c];
            gsl_rng_set(client->rng, stream_seed(run, (uint64_t)c));
            client->retries = 0;
            client->previous = base;
            client->read = hop(client->rng); /* every client's first attempt leaves at t = 0 */
            int64_t write = client->read + hop(client->rng) + hop(client->rng);
            push(heap, &count, (entry){write, order++, (int32_t)c});
        }
        int64_t last_success = -1, completion = 0;
        long calls = 0;
        while (count > 0) {
            entry event = heap[0];
            client_state *client = &clients[event.client];
            int success = last_success <= client->read;
            if (success) last_success = event.time;
            calls++;
            int64_t replied = event.time + hop(client->rng);
            if (success) {
                if (replied > completion) completion = replied;
                replace_top(heap, &count, NULL);
                continue;
            }
            int k = ++client->retries;
            double e = fmin(cap, base * ldexp(1, k - 1)), wait; /* the nominal wait before retry k */
            switch (strategy) {
            case NO_BACKOFF: wait = 0; break;
            case EXPONENTIAL: wait = e; break;
            case FULL: wait = e * gsl_rng_uniform(client->rng); break;
            case EQUAL: wait = e / 2 + e / 2 * gsl_rng_uniform(client->rng); break;
            default:
                client->previous = fmin(cap, base + (3 * client->previous - base) * gsl_rng_uniform(client->rng));
                wait = client->previous;
                break;
            }
            int64_t next = replied + (int64_t)(wait + 0.5);
            client->read = next + hop(client->rng);
            entry moving = {client->read + hop(client->rng) + hop(client->rng), order++, event.client};
            replace_top(heap, &count, &moving);
        }
        printf("%ld %llu %ld %lld\n", n, root, calls, (long long)completion);
    }
    for (long c = 0; c < capacity; c++) gsl_rng_free(clients[c].rng);
    free(clients);
    free(heap);
    return 0;
}
