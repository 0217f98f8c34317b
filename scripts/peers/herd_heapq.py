"""Peer of `backoff simulate` (workload B): a hand-written event loop on heapq, the way a careful
Python user would model N clients failing at t = 0 against an outage. Prints one JSON line per
jitter mode: attempts, successes, mean total wait and the retry peak per bucket."""
import heapq
import json
import random
import sys

from jitter import next_wait


def run(clients, outage, attempts, base, multiplier, cap, bucket, mode, seed):
    rng = random.Random(seed)
    nominal = [min(cap, base * multiplier ** k) for k in range(attempts - 1)]
    queue = [(0.0, client, 1, base, 0.0) for client in range(clients)]  # time, client, attempt, sleep, waited
    heapq.heapify(queue)
    made = successes = 0
    waited_total = 0.0
    retries_per_bucket = {}
    while queue:
        time, client, attempt, sleep, waited = heapq.heappop(queue)
        made += 1
        if attempt > 1:
            key = int(time / bucket + 1e-9)
            retries_per_bucket[key] = retries_per_bucket.get(key, 0) + 1
        if time >= outage:
            successes += 1
            waited_total += waited
            continue
        if attempt == attempts:
            waited_total += waited
            continue
        wait, sleep = next_wait(mode, nominal[attempt - 1], sleep, base, cap, rng)
        heapq.heappush(queue, (time + wait, client, attempt + 1, sleep, waited + wait))
    return {"jitter": mode, "attempts": made, "successes": successes, "mean_total_wait": waited_total / clients,
            "peak_retry_load": max(retries_per_bucket.values(), default=0)}


if __name__ == "__main__":
    clients, attempts = int(sys.argv[1]), int(sys.argv[2])
    outage, base, multiplier, cap, bucket = (float(x) for x in sys.argv[3:8])
    for index, mode in enumerate(["none", "full", "equal", "decorrelated"]):
        print(json.dumps(run(clients, outage, attempts, base, multiplier, cap, bucket, mode, seed=index)))
