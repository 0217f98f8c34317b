"""Peer of `backoff sweep simulate --server contention` (workload C): the 2015 study's model as a
Python user would write it, a heapq event loop. N clients each make one conditional write to a
shared item (read the version, then write with it, each a round trip of two |N(10 ms, 2 ms)| hops);
a failed write waits its backoff and reads again. Prints, per strategy and N, the mean and standard
error over runs of the calls (writes) and of the completion time, as JSON lines."""
import heapq
import json
import math
import random
import sys

STRATEGIES = ["no-backoff", "exponential", "full-jitter", "equal-jitter", "decorrelated"]


def backoff(strategy, retry, sleep, rng):
    """The wait before retry `retry` (1, 2, ...); `sleep` is decorrelated jitter's previous wait."""
    if strategy == "no-backoff":
        return 0.0, sleep
    if strategy == "decorrelated":
        sleep = min(2.0, rng.uniform(0.005, sleep * 3))
        return sleep, sleep
    e = min(2.0, 0.01 * 2 ** (retry - 1))
    if strategy == "exponential":
        return e, sleep
    if strategy == "full-jitter":
        return rng.uniform(0, e), sleep
    return e / 2 + rng.uniform(0, e / 2), sleep


def run(strategy, clients, rng):
    hop = lambda: abs(rng.normalvariate(0.010, 0.002))
    version = 0
    calls = 0
    now = 0.0
    # Events: (time, sequence, kind, client, value); state per client: [retry, sleep].
    state = [[0, 0.005] for _ in range(clients)]
    queue = [(hop(), client, "read", client, 0) for client in range(clients)]
    heapq.heapify(queue)
    sequence = clients
    while queue:
        now, _, kind, client, value = heapq.heappop(queue)
        if kind == "read":  # at the server: reply with the version
            event = (now + hop(), "read-reply", version)
        elif kind == "read-reply":  # at the client: write with the version read
            event = (now + hop(), "write", value)
        elif kind == "write":  # at the server: conditional write
            calls += 1
            success = value == version
            if success:
                version += 1
            event = (now + hop(), "write-reply", int(success))
        else:  # write reply at the client
            if value:
                continue
            state[client][0] += 1
            wait, state[client][1] = backoff(strategy, state[client][0], state[client][1], rng)
            event = (now + wait + hop(), "read", 0)
        heapq.heappush(queue, (event[0], sequence, event[1], client, event[2]))
        sequence += 1
    return calls, now


def main(runs, client_counts):
    rng = random.Random(2015)
    for clients in client_counts:
        for strategy in STRATEGIES:
            results = [run(strategy, clients, rng) for _ in range(runs)]
            for name, values in (("calls", [r[0] for r in results]), ("completion", [r[1] for r in results])):
                mean = sum(values) / runs
                sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (runs - 1))
                print(json.dumps({"clients": clients, "strategy": strategy, "statistic": name, "mean": mean, "se": sd / math.sqrt(runs)}))


if __name__ == "__main__":
    main(int(sys.argv[1]), [int(n) for n in sys.argv[2].split(",")])
