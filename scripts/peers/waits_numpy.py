"""Peer of `backoff waits` (workload A): what a user would write instead, vectorised with numpy.
R runs of one request whose every attempt fails, per jitter mode; prints one JSON line per mode
with the same statistics backoff reports (mean, sd, standard error, p50/p90/p99, max)."""
import json
import sys

import numpy as np


def main(runs, attempts, base, multiplier, cap, seed=2015):
    rng = np.random.default_rng(seed)
    nominal = np.minimum(cap, base * multiplier ** np.arange(attempts - 1))
    for mode in ["none", "full", "equal", "decorrelated"]:
        if mode == "none":
            total = np.full(runs, nominal.sum())
        elif mode == "full":
            total = np.zeros(runs)
            for e in nominal:
                total += rng.random(runs) * e
        elif mode == "equal":
            total = np.zeros(runs)
            for e in nominal:
                total += e / 2 + rng.random(runs) * (e / 2)
        else:
            sleep = np.full(runs, base)
            total = np.zeros(runs)
            for _ in nominal:
                sleep = np.minimum(cap, base + rng.random(runs) * (3 * sleep - base))
                total += sleep
        sd = float(total.std(ddof=1))
        p50, p90, p99 = np.quantile(total, [0.5, 0.9, 0.99])
        print(json.dumps({"jitter": mode, "mean": float(total.mean()), "sd": sd, "se": sd / runs ** 0.5,
                          "p50": float(p50), "p90": float(p90), "p99": float(p99), "max": float(total.max())}))


if __name__ == "__main__":
    runs, attempts = int(sys.argv[1]), int(sys.argv[2])
    base, multiplier, cap = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    main(runs, attempts, base, multiplier, cap)
