"""Peer of `backoff simulate` (workload B) written with SimPy, the usual Python discrete-event
library: one process per client. Same output as herd_heapq.py."""
import json
import random
import sys

import simpy
from jitter import next_wait


def run(clients, outage, attempts, base, multiplier, cap, bucket, mode, seed):
    rng = random.Random(seed)
    nominal = [min(cap, base * multiplier ** k) for k in range(attempts - 1)]
    env = simpy.Environment()
    stats = {"attempts": 0, "successes": 0, "waited": 0.0, "retries": {}}

    def client():
        sleep = base
        waited = 0.0
        for attempt in range(1, attempts + 1):
            stats["attempts"] += 1
            if attempt > 1:
                key = int(env.now / bucket + 1e-9)
                stats["retries"][key] = stats["retries"].get(key, 0) + 1
            if env.now >= outage:
                stats["successes"] += 1
                break
            if attempt == attempts:
                break
            wait, sleep = next_wait(mode, nominal[attempt - 1], sleep, base, cap, rng)
            waited += wait
            yield env.timeout(wait)
        stats["waited"] += waited

    for _ in range(clients):
        env.process(client())
    env.run()
    return {"jitter": mode, "attempts": stats["attempts"], "successes": stats["successes"],
            "mean_total_wait": stats["waited"] / clients, "peak_retry_load": max(stats["retries"].values(), default=0)}


if __name__ == "__main__":
    clients, attempts = int(sys.argv[1]), int(sys.argv[2])
    outage, base, multiplier, cap, bucket = (float(x) for x in sys.argv[3:8])
    for index, mode in enumerate(["none", "full", "equal", "decorrelated"]):
        print(json.dumps(run(clients, outage, attempts, base, multiplier, cap, bucket, mode, seed=index)))
