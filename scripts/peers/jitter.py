"""The four jitter modes as the Python peers draw them (shared by herd_heapq.py and herd_simpy.py)."""


def next_wait(mode, nominal, sleep, base, cap, rng):
    """The wait before the next retry and decorrelated jitter's new `sleep`, for nominal wait e."""
    if mode == "none":
        return nominal, sleep
    if mode == "full":
        return rng.random() * nominal, sleep
    if mode == "equal":
        return nominal / 2 + rng.random() * nominal / 2, sleep
    sleep = min(cap, base + rng.random() * (3 * sleep - base))
    return sleep, sleep
