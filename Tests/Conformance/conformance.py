"""Presets proven against the libraries' own code (run by scripts/conformance).

For every preset whose library installs here, the library's own retry code is run with the
configuration the preset claims, on a virtual clock (its sleeps are recorded, not slept), and its
waits are compared with `backoff waits --preset NAME --wait-samples FILE`:

- each retry's window: every wait of both lies within the bounds `backoff schedule` gives, and
  both come within 25/n of the window's width of each end (a uniform misses that with
  probability e^-25), unless a time limit makes the longer waits rarer;
- each retry's waits and the total: two-sample Kolmogorov-Smirnov at alpha = 1e-4, and the means
  within 4 standard errors;
- the share of waits at the cap, and the number of retries per request, within 4 standard errors.

Every random draw is seeded (the libraries' module-level generators, and grpc-go's through a hook),
so the same commit gives the same verdicts. A failure names the preset, the retry and the statistic.

    conformance.py --backoff PATH --go-sampler PATH [--botocore-1.43 DIR] [--runs N] [--figure DIR]
"""

import argparse
import csv
import functools
import io
import math
import os
import random
import subprocess
import sys
import time as real_time

import aws_config

# Two independent sample means differ by z standard errors, z ~ N(0, 1) when both draw from one law:
# |z| > 4 has probability 6.3e-5 per comparison. With some 400 comparisons here the chance that a
# correct preset fails somewhere is under 3 %, and it is fixed per commit, since every seed is.
Z_LIMIT = 4.0
# Two-sample KS at alpha = 1e-4: D > c(alpha) sqrt((n + m) / (n m)), c(alpha) = sqrt(-ln(alpha / 2) / 2).
KS_ALPHA = 1e-4
KS_C = math.sqrt(-math.log(KS_ALPHA / 2) / 2)
# A retry is compared once both sides have this many waits at it (later retries of a time-limited
# policy thin out).
MIN_WAITS = 400
SEED = 20151


class VirtualClock:
    """A stand-in for the `time` module: sleep advances monotonic() and records the wait."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def monotonic(self):
        return self.now

    def time(self):
        return self.now

    def perf_counter(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(float(seconds))
        self.now += float(seconds)


class FakeDateTime:
    """datetime.datetime.now() on the clock, for python-backoff's elapsed time."""

    def __init__(self, clock):
        import datetime

        self.clock = clock
        self.epoch = datetime.datetime(2026, 1, 1)
        self.datetime = self
        self.timedelta = datetime.timedelta

    def now(self):
        return self.epoch + self.timedelta(seconds=self.clock.now)


class Boom(Exception):
    pass


def always_fail():
    raise Boom()


# --- the libraries' samplers: each returns one list of waits (seconds) per request ---------------


def tenacity_requests(runs, wait):
    import tenacity

    requests = []
    for _ in range(runs):
        clock = VirtualClock()
        retrying = tenacity.Retrying(wait=wait, stop=tenacity.stop_after_attempt(5), sleep=clock.sleep)
        try:
            retrying(always_fail)
        except tenacity.RetryError:
            pass
        requests.append(clock.sleeps)
    return requests


def tenacity_random_exponential(runs):
    import tenacity

    return tenacity_requests(runs, tenacity.wait_random_exponential())


def tenacity_exponential_jitter(runs):
    import tenacity

    return tenacity_requests(runs, tenacity.wait_exponential_jitter())


def urllib3_requests(runs):
    import urllib3.util.retry as retry_module
    from urllib3.exceptions import ConnectTimeoutError, MaxRetryError

    requests = []
    for _ in range(runs):
        clock = VirtualClock()
        retry_module.time = clock
        retry = retry_module.Retry(total=5, backoff_factor=0.5, backoff_jitter=1, backoff_max=6)
        while True:
            try:
                retry = retry.increment(method="GET", url="/", error=ConnectTimeoutError("refused"))
            except MaxRetryError:
                break
            before = len(clock.sleeps)
            retry.sleep()  # what urlopen calls before its next attempt
            if len(clock.sleeps) == before:
                clock.sleeps.append(0.0)  # a backoff of 0 returns without calling time.sleep
        requests.append(clock.sleeps)
    retry_module.time = real_time
    return requests


def google_api_core_default(runs):
    from google.api_core import retry as api_retry
    import google.api_core.retry.retry_base as base_module
    import google.api_core.retry.retry_unary as unary_module

    requests = []
    for _ in range(runs):
        clock = VirtualClock()
        base_module.time, unary_module.time = clock, clock
        policy = api_retry.Retry(predicate=lambda error: isinstance(error, Boom))
        try:
            policy(always_fail)()
        except Exception:
            pass
        requests.append(clock.sleeps)
    base_module.time, unary_module.time = real_time, real_time
    return requests


def python_backoff_expo(runs):
    import backoff
    import backoff._sync as sync_module

    requests = []
    original_datetime = sync_module.datetime
    for _ in range(runs):
        clock = VirtualClock()
        sync_module.time = clock
        sync_module.datetime = FakeDateTime(clock)
        call = backoff.on_exception(backoff.expo, Boom, max_tries=5, logger=None)(always_fail)
        try:
            call()
        except Boom:
            pass
        requests.append(clock.sleeps)
    sync_module.time, sync_module.datetime = real_time, original_datetime
    return requests


BOTOCORE_SAMPLER = r"""
import random, sys, time
sys.path.insert(0, sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
import botocore, botocore.session
import botocore.retries.quota as quota_module
from botocore.awsrequest import AWSResponse
from botocore.config import Config

kind, runs, seed, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[5]
quotas = []
original_init = quota_module.RetryQuota.__init__
def remembered(self, *args, **kwargs):
    original_init(self, *args, **kwargs)
    quotas.append(self)
quota_module.RetryQuota.__init__ = remembered

class Body:
    def __init__(self, data): self.data = data
    def stream(self, **kwargs): yield self.data
status, code = (500, "InternalFailure") if kind == "transient" else (400, "Throttling")
error = ("<ErrorResponse><Error><Type>Receiver</Type><Code>%s</Code><Message>m</Message></Error></ErrorResponse>"
         % code).encode()
def send(request):
    return AWSResponse(request.url, status, {}, Body(error))

sleeps = []
time.sleep = sleeps.append
client = botocore.session.get_session().create_client(
    "sts", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b",
    config=Config(retries={"mode": mode}))
client._endpoint.http_session.send = send
random.seed(seed)
out = sys.stdout
out.write("botocore,%s\n" % botocore.__version__)
# The quota is the client's: first how many retries it grants in a row, then, refilled before each
# request, every request's waits. The legacy mode has no quota (-1).
granted = 0 if mode != "legacy" else -1
while mode != "legacy":
    before = len(sleeps)
    try: client.get_caller_identity()
    except Exception: pass
    if len(sleeps) == before: break
    granted += len(sleeps) - before
out.write("granted,%d\n" % granted)
for run in range(1, runs + 1):
    if quotas: quotas[0]._available_capacity = quotas[0]._max_capacity
    del sleeps[:]
    try: client.get_caller_identity()
    except Exception: pass
    out.write("%d,%s\n" % (run, ",".join(repr(s) for s in sleeps)))
"""


def botocore_requests(runs, kind, site="", mode="standard"):
    """botocore's own client (sts GetCallerIdentity) in retry mode `mode` against a fake HTTP layer
    answering every attempt with HTTP 500 InternalFailure (transient) or 400 Throttling; run in a
    subprocess so another botocore (`site`) can be imported first."""
    result = subprocess.run(
        [sys.executable, "-c", BOTOCORE_SAMPLER, kind, str(runs), str(SEED), site, mode],
        check=True, capture_output=True, text=True)
    lines = result.stdout.splitlines()
    version = lines[0].split(",")[1]
    granted = int(lines[1].split(",")[1])
    granted = None if granted < 0 else granted
    requests = [[float(x) for x in line.split(",")[1:] if x] for line in lines[2:]]
    return requests, version, granted


def go_requests(sampler, library, runs):
    result = subprocess.run([sampler, library, str(runs), str(SEED)], check=True, capture_output=True, text=True)
    requests = {}
    for row in csv.DictReader(io.StringIO(result.stdout)):
        requests.setdefault(int(row["run"]), []).append(int(row["wait_ns"]) / 1e9)
    return [requests[run] for run in sorted(requests)]


# --- our side ---------------------------------------------------------------------------------


def backoff_requests(binary, preset, runs, extra, scratch):
    path = os.path.join(scratch, f"{preset}-{'-'.join(extra) or 'default'}-waits.csv".replace("/", "_"))
    subprocess.run(
        [binary, "waits", "--preset", preset, "--runs", str(runs), "--seed", str(SEED), "--jobs", "1",
         "--wait-samples", path, "--output", os.devnull] + extra,
        check=True, capture_output=True, text=True)
    requests = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            requests.setdefault(int(row["run"]), []).append(float(row["wait_s"]))
    # A request that retried nothing has no row: it waited nothing.
    return [requests.get(run, []) for run in range(1, runs + 1)]


def backoff_windows(binary, preset, extra):
    """Each retry's window [low, high] in seconds, and the cap, from `backoff schedule` and
    `backoff presets`."""
    out = subprocess.run(
        [binary, "schedule", "--preset", preset, "--max-elapsed", "none"] + extra,
        check=True, capture_output=True, text=True).stdout
    windows = {}
    for row in csv.DictReader(io.StringIO(out)):
        attempt = int(row["attempt"])
        if attempt > 1:
            windows[attempt - 1] = (float(row["window_low_s"]), float(row["window_high_s"]))
    return windows


def preset_rows(binary):
    out = subprocess.run([binary, "presets"], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


# --- the adaptive rate limiter, state by state -------------------------------------------------

LIMITER_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "limiter")


# When each file's SDK client was made, where it is not at the first event: the SDKs' shared vector
# starts its responses at 0.2 s, its limiter made at 0.
CREATED_AT = {"sdk-vector.csv": 0.0}


def botocore_limiter_states(path, created_at=None, smoothing=None):
    """botocore's own ClientRateLimiter driven through an events file on a fake clock: the state
    after each event, as `backoff limiter` prints it. The token bucket's condition variable is the
    one real-time part; its stand-in advances the clock by the wait asked, and by at least one ulp,
    so that botocore's wait loop ends when a residue below an ulp is left."""
    from botocore.retries import adaptive, bucket, throttling

    class Clock:
        def __init__(self, now):
            self.now = now

        def current_time(self):
            return self.now

        def sleep(self, amount):
            self.advance(amount)

        def advance(self, amount):
            self.now = max(self.now + amount, math.nextafter(self.now, math.inf))

    class Condition:
        def __init__(self, clock):
            self.clock = clock

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def wait(self, amount):
            self.clock.advance(amount)

        def notify(self):
            pass

    class Detector:
        def is_throttling_error(self, **kwargs):
            return kwargs["throttled"]

    with open(path) as f:
        events = [(float(row["time_s"]), row["event"]) for row in csv.DictReader(f)]
    clock = Clock(events[0][0] if created_at is None else created_at)
    token_bucket = bucket.TokenBucket(max_rate=1, clock=clock)
    token_bucket._new_fill_rate_condition = Condition(clock)
    rate_clocker = adaptive.RateClocker(clock) if smoothing is None else adaptive.RateClocker(clock, smoothing)
    limiter = adaptive.ClientRateLimiter(
        rate_adjustor=throttling.CubicCalculator(starting_max_rate=0, start_time=clock.current_time()),
        rate_clocker=rate_clocker, token_bucket=token_bucket, throttling_detector=Detector(), clock=clock)
    states = []
    for time_s, event in events:
        clock.now = max(clock.now, time_s)
        at, delay = clock.now, None
        if event == "send":
            limiter.on_sending_request(request=None)
            delay = clock.now - at
        else:
            limiter.on_receiving_response(throttled=event == "throttle")
        states.append({
            "at_s": at, "delay_s": delay, "measured_rate": rate_clocker.measured_rate,
            "fill_rate": token_bucket.max_rate, "capacity": token_bucket.max_capacity,
            "tokens": token_bucket.available_capacity, "enabled": "yes" if limiter._enabled else "no"})
    return states


def go_limiter_states(binary, path, created_at=None):
    """aws-sdk-go-v2's own adaptiveRateLimit driven through an events file on a fake clock of whole
    nanoseconds (Tests/Conformance/limiter.go): the state after each event."""
    argv = [binary, path] + ([] if created_at is None else [repr(created_at)])
    rows = list(csv.DictReader(io.StringIO(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)))
    return [{column: (value if column == "enabled" else None if value == "" else float(value))
             for column, value in row.items()} for row in rows]


def check_limiter(report, binary, library, theirs_of, sdk="botocore", nanosecond_clock=False):
    """Every state of `backoff limiter --throttle aws-adaptive:sdk=SDK` against the library's, to
    1e-9 (relative above 1). `theirs_of(path, created_at)` gives the library's states. A library
    on a clock of whole nanoseconds that sleeps a truncated wait (aws-sdk-go-v2) grants a token up
    to a few ns after the exact time, so its times may be 3 ns later and its bucket up to
    3 ns x the fill rate fuller than the exact model's: that much more is allowed there."""
    files = sorted(f for f in os.listdir(LIMITER_FILES) if f.endswith(".csv"))
    for name in files:
        path = os.path.join(LIMITER_FILES, name)
        created_at = CREATED_AT.get(name)
        argv = [binary, "limiter", "--throttle", f"aws-adaptive:sdk={sdk}", "--events", path]
        argv += [] if created_at is None else ["--created-at", repr(created_at)]
        ours = list(csv.DictReader(io.StringIO(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)))
        theirs = theirs_of(path, created_at)
        report.check(len(ours) == len(theirs), f"limiter {name}: {len(ours)} states, {library}'s {len(theirs)}")
        worst = 0.0
        for row, (a, b) in enumerate(zip(ours, theirs), start=2):
            for column, expected in b.items():
                if column == "enabled" or expected is None:
                    ok = a[column] == (expected or "")
                    report.check(ok, f"limiter {name}, row {row}, {column}: ours '{a[column]}', {library}'s '{expected}'")
                    continue
                value = float(a[column])
                slack = 0.0
                if nanosecond_clock and column in ("at_s", "delay_s"):
                    slack = 3e-9
                elif nanosecond_clock and column == "tokens":
                    slack = 3e-9 * float(b["fill_rate"])
                error = max(0.0, abs(value - expected) - slack) / max(1.0, abs(expected))
                worst = max(worst, error)
                report.check(
                    error <= 1e-9, f"limiter {name}, row {row}, {column}: ours {value!r}, {library}'s {expected!r}")
        print(f"conformance: limiter {name:28} {len(theirs)} events, every state of sdk={sdk} within {worst:.1e} of "
              f"{library}'s")


# --- botocore's adaptive mode end to end ---------------------------------------------------

ADAPTIVE_SAMPLER = r"""
import math, random, sys, time
import botocore.session
from botocore.awsrequest import AWSResponse
from botocore.config import Config
import botocore.retries.bucket as bucket_module
import botocore.retries.quota as quota_module

class Clock:
    now = 1000.0
clock = Clock()
def advance(seconds):
    clock.now = max(clock.now + seconds, math.nextafter(clock.now, math.inf))
time.time = lambda: clock.now
retry_sleeps = []
def sleep(seconds):
    retry_sleeps.append(seconds)
    advance(seconds)
time.sleep = sleep
token_waits = []
class Condition:
    def __enter__(self): return self
    def __exit__(self, *exc): return False
    def wait(self, amount):
        token_waits.append(amount)
        advance(amount)
    def notify(self): pass
original = bucket_module.TokenBucket.__init__
def init(self, *a, **k):
    self._lock = None
    original(self, *a, **k)
    self._new_fill_rate_condition = Condition()
bucket_module.TokenBucket.__init__ = init
quotas = []
qinit = quota_module.RetryQuota.__init__
def remembered(self, *a, **k):
    qinit(self, *a, **k); quotas.append(self)
quota_module.RetryQuota.__init__ = remembered

class Body:
    def __init__(self, data): self.data = data
    def stream(self, **kwargs): yield self.data
OK = (b'<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>'
      b'<Arn>arn:aws:iam::123456789012:user/x</Arn><UserId>AID</UserId><Account>123456789012</Account>'
      b'</GetCallerIdentityResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetCallerIdentityResponse>')
THROTTLE = b'<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>slow down</Message></Error></ErrorResponse>'
class Server:
    def __init__(self, rate, burst):
        self.rate, self.burst, self.tokens, self.last = rate, burst, burst, clock.now
        self.attempts = self.throttles = 0
    def send(self, request):
        self.tokens = min(self.burst, self.tokens + (clock.now - self.last) * self.rate)
        self.last = clock.now
        self.attempts += 1
        if self.tokens >= 1:
            self.tokens -= 1
            return AWSResponse(request.url, 200, {}, Body(OK))
        self.throttles += 1
        return AWSResponse(request.url, 400, {}, Body(THROTTLE))

requests, runs, seed, rate = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
print("successes,attempts,throttles,elapsed_s,token_wait_s")
for run in range(runs):
    random.seed(seed + run)
    del token_waits[:]
    start = clock.now
    server = Server(rate, 1)
    client = botocore.session.get_session().create_client(
        "sts", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b",
        config=Config(retries={"mode": "adaptive"}))
    client._endpoint.http_session.send = server.send
    successes = 0
    for _ in range(requests):
        try:
            client.get_caller_identity()
            successes += 1
        except Exception:
            pass
    print(f"{successes},{server.attempts},{server.throttles},{clock.now - start!r},{sum(token_waits)!r}")
    clock.now += 1000  # the next client starts later, on its own
"""


def check_adaptive_client(report, binary, runs=12, requests=500, rate=10.0, extra=()):
    """botocore's own client in adaptive retry mode, one thread sending `requests` requests in a row
    to a server that admits `rate` a second (a token bucket of 1, throttling the rest with 400
    Throttling), every clock faked (time.time, time.sleep, the token bucket's condition), against
    `backoff simulate --server ratelimit:RATE/s --preset aws-sdk-adaptive --clients 1
    --requests-per-client N`. Per run: the throughput, throttles a second and the share of the time
    spent waiting for tokens; over `runs` seeded runs a side, the means agree within 4 standard
    errors of their difference (each side's SE from its runs' spread)."""
    result = subprocess.run(
        [sys.executable, "-c", ADAPTIVE_SAMPLER, str(requests), str(runs), str(SEED), str(rate)],
        check=True, capture_output=True, text=True)
    theirs = []
    for row in csv.DictReader(io.StringIO(result.stdout)):
        elapsed = float(row["elapsed_s"])
        theirs.append((int(row["successes"]) / elapsed, int(row["throttles"]) / elapsed,
                       float(row["token_wait_s"]) / elapsed))
    ours = []
    for run in range(runs):
        out = subprocess.run(
            [binary, "simulate", "--server", f"ratelimit:{rate:g}/s", "--preset", "aws-sdk-adaptive", "--clients", "1",
             "--requests-per-client", str(requests), "--on-give-up", "continue", "--seed", str(SEED + run)]
            + list(extra),
            check=True, capture_output=True, text=True).stdout
        row = next(csv.DictReader(io.StringIO(out)))
        elapsed = float(row["last_completion_s"])
        ours.append((int(row["successes"]) / elapsed, (int(row["attempts_total"]) - int(row["successes"])) / elapsed,
                     float(row["token_wait_s"]) / elapsed))
    for index, what in enumerate(("requests answered a second", "throttles a second", "share of time waiting for tokens")):
        (m1, s1), (m2, s2) = mean_and_se([r[index] for r in ours]), mean_and_se([r[index] for r in theirs])
        se = math.hypot(s1, s2)
        report.check(
            abs(m1 - m2) <= Z_LIMIT * se,
            f"aws-sdk-adaptive against botocore's client, {what}: ours {m1:.4f}, botocore's {m2:.4f} "
            f"(z {(m1 - m2) / se if se else 'inf'})")
        if not extra:
            print(f"conformance: aws-sdk-adaptive, one client against {rate:g}/s, {what}: ours {m1:.4f} ± {s1:.4f}, "
                  f"botocore's {m2:.4f} ± {s2:.4f}")


# --- statistics -------------------------------------------------------------------------------


def ks_statistic(a, b):
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    return d


def mean_and_se(values):
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(variance / n)


class Report:
    def __init__(self):
        self.failures = []
        self.checks = 0

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.failures.append(what)


def compare(report, name, library, ours, theirs, windows, cap, time_limited):
    label = f"{name} (against {library})"
    tolerance = 2e-9
    # Retries per request.
    counts_ours, counts_theirs = [len(r) for r in ours], [len(r) for r in theirs]
    (m1, s1), (m2, s2) = mean_and_se(counts_ours), mean_and_se(counts_theirs)
    se = math.hypot(s1, s2)
    report.check(
        (m1 == m2) if se == 0 else abs(m1 - m2) <= Z_LIMIT * se,
        f"{label}: retries per request: ours {m1:.4f}, the library's {m2:.4f} (z {(m1 - m2) / se if se else 'inf'})")
    retries = max(max(counts_ours), max(counts_theirs))
    for k in range(1, retries + 1):
        a = [r[k - 1] for r in ours if len(r) >= k]
        b = [r[k - 1] for r in theirs if len(r) >= k]
        if len(a) < MIN_WAITS or len(b) < MIN_WAITS:
            break
        where = f"{label}, retry {k}"
        if k in windows:
            low, high = windows[k]
            width = high - low
            for side, waits in (("ours", a), ("the library's", b)):
                report.check(
                    min(waits) >= low - tolerance and max(waits) <= high + tolerance,
                    f"{where}: window: {side} waits span [{min(waits)!r}, {max(waits)!r}] s, outside "
                    f"[{low!r}, {high!r}] s")
                # Under a time limit a long wait is less often taken, so the ends need not be reached.
                reach = width * 25 / len(waits) + tolerance
                report.check(
                    time_limited or (min(waits) <= low + reach and max(waits) >= high - reach),
                    f"{where}: window: {side} waits span [{min(waits)!r}, {max(waits)!r}] s and do not reach the "
                    f"ends of [{low!r}, {high!r}] s")
        same_law(report, f"{where}, wait", a, b, tolerance)
    m1, m2 = same_law(report, f"{label}, total wait", [sum(r) for r in ours], [sum(r) for r in theirs], tolerance)
    if cap is not None:
        shares = []
        for requests in (ours, theirs):
            waits = [w for r in requests for w in r]
            shares.append((sum(1 for w in waits if abs(w - cap) <= tolerance), len(waits)))
        (x1, n1), (x2, n2) = shares
        p = (x1 + x2) / (n1 + n2)
        se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
        report.check(
            (x1 / n1 == x2 / n2) if se == 0 else abs(x1 / n1 - x2 / n2) <= Z_LIMIT * se,
            f"{label}: share of waits at the cap ({cap} s): ours {x1 / n1:.5f}, the library's {x2 / n2:.5f}")
    return m1, m2


def targeted_controls(report, compared):
    """Each kind of check, shown able to fail on its own: our waits are changed in a way only that
    check is built to see, and that check (named by its message) must be among the failures. A
    control that passes when any check fails would not show this: the KS test alone could catch
    every change."""
    windowed = next(c for c in compared if c[4] and not c[6])
    capped = next(c for c in compared if c[5] is not None
                  and sum(1 for r in c[2] for w in r if abs(w - c[5]) <= 2e-9) >= 100)

    def one_wait_outside(ours, windows):  # one wait of 20,000 past its window's top by 1 ms
        k = min(windows)
        changed = [list(r) for r in ours]
        first = next(r for r in changed if len(r) >= k)
        first[k - 1] = windows[k][1] + 1e-3
        return changed

    def short_of_the_ends(ours, windows):  # every wait of the first windowed retry kept off 5 % of each end
        k = min(windows)
        low, high = windows[k]
        return [[low + (high - low) * (0.05 + 0.9 * (w - low) / (high - low)) if i == k - 1 else w
                 for i, w in enumerate(r)] for r in ours]

    def under_the_cap(ours, cap):  # the waits at the cap 1 µs short of it
        return [[cap - 1e-6 if abs(w - cap) <= 2e-9 else w for w in r] for r in ours]

    def one_retry_fewer(ours):  # a tenth of the requests stop one retry early
        return [r[:-1] if i % 10 == 0 and r else r for i, r in enumerate(ours)]

    controls = [
        ("window", windowed, one_wait_outside(windowed[2], windowed[4]), "outside ["),
        ("reach", windowed, short_of_the_ends(windowed[2], windowed[4]), "do not reach the ends"),
        ("cap share", capped, under_the_cap(capped[2], capped[5]), "share of waits at the cap"),
        ("retries per request", windowed, one_retry_fewer(windowed[2]), "retries per request"),
    ]
    for check, (label, library, _, theirs, windows, cap, time_limited), changed, phrase in controls:
        control = Report()
        compare(control, f"{label} [control: {check}]", library, changed, theirs, windows, cap, time_limited)
        caught = [f for f in control.failures if phrase in f]
        report.check(caught, f"negative control '{check}' on {label}: the {check} check did not fail "
                             f"({len(control.failures)} others did)")
        print(f"conformance: negative control {check!r} on {label}: its check fails "
              f"({len(caught)} of its checks; {len(control.failures)} of {control.checks} fail in all)")


def same_law(report, where, a, b, tolerance):
    """Two samples of one law: KS distance and means (within `tolerance` when both are exact)."""
    d = ks_statistic(a, b)
    limit = KS_C * math.sqrt((len(a) + len(b)) / (len(a) * len(b)))
    report.check(d <= limit, f"{where}: KS D = {d:.4f} > {limit:.4f} (n = {len(a)}, {len(b)})")
    (m1, s1), (m2, s2) = mean_and_se(a), mean_and_se(b)
    se = math.hypot(s1, s2)
    report.check(
        abs(m1 - m2) <= max(Z_LIMIT * se, tolerance),
        f"{where}: mean ours {m1!r} s, the library's {m2!r} s (z {(m1 - m2) / se if se else 'inf'})")
    return m1, m2


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backoff", required=True)
    parser.add_argument("--go-sampler", required=True)
    parser.add_argument("--go-limiter", required=True, help="aws-sdk-go-v2's limiter replay (Tests/Conformance/limiter.go)")
    parser.add_argument("--botocore-1.43", dest="botocore_143", default="")
    parser.add_argument("--runs", type=int, default=20000)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--figure", help="also draw the total-wait CDFs of every preset and its library here")
    args = parser.parse_args()

    import botocore
    import google.api_core
    import tenacity  # noqa: F401
    import urllib3
    from importlib.metadata import version

    runs = args.runs
    rows = {(row["preset"], row["failure_kind"]): row for row in preset_rows(args.backoff)}
    verified = {row["preset"]: row["verified"] for row in rows.values()}

    def seeded(sampler):
        def draw():
            random.seed(SEED)
            return sampler(runs)
        return draw

    # (preset, failure kind, library version, the library's requests)
    cases = []
    for kind in ("transient", "throttling"):
        requests, botocore_version, granted = botocore_requests(runs, kind)
        cases.append(("aws-sdk-standard", kind, f"botocore {botocore_version}", requests, granted))
    requests, botocore_version, _ = botocore_requests(runs, "transient", mode="legacy")
    cases.append(("aws-sdk-legacy", "transient", f"botocore {botocore_version}", requests, None))
    if args.botocore_143:
        requests, botocore_version, granted = botocore_requests(runs, "transient", args.botocore_143)
        cases.append(("aws-sdk-standard-1.43", "transient", f"botocore {botocore_version}", requests, granted))
    cases += [
        ("tenacity-random-exponential", "transient", f"tenacity {version('tenacity')}",
         seeded(tenacity_random_exponential)(), None),
        ("tenacity-exponential-jitter", "transient", f"tenacity {version('tenacity')}",
         seeded(tenacity_exponential_jitter)(), None),
        ("urllib3-requests", "transient", f"urllib3 {urllib3.__version__}", seeded(urllib3_requests)(), None),
        ("google-api-core-default", "transient", f"google-api-core {google.api_core.__version__}",
         seeded(google_api_core_default)(), None),
        ("python-backoff-expo", "transient", f"backoff {version('backoff')}", seeded(python_backoff_expo)(), None),
        ("grpc-connection", "transient", "grpc-go " + go_version("grpc"),
         go_requests(args.go_sampler, "grpc-connection", runs), None),
        ("cenkalti-default", "transient", "cenkalti/backoff " + go_version("cenkalti"),
         go_requests(args.go_sampler, "cenkalti-default", runs), None),
    ]

    report = Report()
    totals = []
    compared = []  # what each case compared, for the targeted negative controls
    for preset, kind, library, theirs, granted in cases:
        row = rows[(preset, kind)]
        report.check(
            verified.get(preset) == f"library-code {library}",
            f"{preset}: backoff presets says verified '{verified.get(preset)}', but it was run against {library}")
        extra = ["--failure-kind", kind]
        ours = backoff_requests(args.backoff, preset, runs, extra, args.scratch)
        windows = backoff_windows(args.backoff, preset, extra)
        cap = None if row["cap_s"] == "inf" else float(row["cap_s"])
        label = preset if kind == "transient" else f"{preset} ({kind})"
        time_limited = row["max_elapsed_s"] != "inf"
        mean_ours, mean_theirs = compare(report, label, library, ours, theirs, windows, cap, time_limited)
        compared.append((label, library, ours, theirs, windows, cap, time_limited))
        if granted is not None:
            expected = quota_retries(row["budget"], kind)
            report.check(
                granted == expected,
                f"{label}: {library}'s retry quota granted {granted} retries in a row; the preset's budget "
                f"({row['budget']}) grants {expected}")
        print(f"conformance: {label:44} {library:28} mean total wait ours {mean_ours:.6f} s, "
              f"the library's {mean_theirs:.6f} s")
        totals.append((label, library, [sum(r) for r in ours], [sum(r) for r in theirs]))

    # Negative controls: the comparisons must tell apart the presets as they were before they were
    # proven, so a check that cannot fail would show here.
    by_label = {label: (theirs, library) for label, library, _, theirs in
                [(c[0] if c[1] == "transient" else f"{c[0]} ({c[1]})", c[2], None, c[3]) for c in cases]}
    rng = random.Random(SEED)
    grpc, grpc_library = by_label["grpc-connection"]
    jittered_first = [[r[0] * (1 + 0.2 * (2 * rng.random() - 1))] + r[1:] for r in grpc]
    old_aws, _ = by_label.get("aws-sdk-standard-1.43", (None, None))
    aws, aws_library = by_label["aws-sdk-standard"]
    controls = [("grpc-connection with a jittered first wait", grpc_library, jittered_first, grpc, {}, None)]
    if old_aws is not None:
        controls.append(("aws-sdk-standard as botocore 1.43", aws_library, old_aws, aws, {}, 20.0))
    for label, library, wrong, theirs, windows, cap in controls:
        control = Report()
        compare(control, label, library, wrong, theirs, windows, cap, False)
        report.check(control.failures, f"negative control '{label}': no comparison told it from {library}")
        print(f"conformance: negative control {label!r}: {len(control.failures)} of {control.checks} checks fail, "
              f"as they must")

    targeted_controls(report, compared)

    check_limiter(report, args.backoff, f"botocore {botocore.__version__}", botocore_limiter_states)
    go_states = functools.partial(go_limiter_states, args.go_limiter)
    check_limiter(report, args.backoff, "aws-sdk-go-v2 1.17.1", go_states, sdk="go-v2", nanosecond_clock=True)
    check_adaptive_client(report, args.backoff)
    control = Report()
    check_adaptive_client(control, args.backoff, extra=["--throttle", "none"])
    report.check(control.failures, "negative control: the standard mode passed for botocore's adaptive mode")
    print(f"conformance: negative control 'aws-sdk-adaptive without its limiter': {len(control.failures)} of "
          f"{control.checks} checks fail, as they must")
    control = Report()
    check_limiter(control, args.backoff, "botocore", functools.partial(botocore_limiter_states, smoothing=0.75))
    report.check(control.failures, "negative control: botocore's limiter with smoothing 0.75 matched ours")
    print(f"conformance: negative control 'limiter with smoothing 0.75': {len(control.failures)} of "
          f"{control.checks} checks fail, as they must")
    control = Report()
    check_limiter(control, args.backoff, "aws-sdk-go-v2", go_states, sdk="botocore", nanosecond_clock=True)
    report.check(control.failures, "negative control: our botocore limiter passed for aws-sdk-go-v2's")
    print(f"conformance: negative control 'botocore's limiter as go-v2's': {len(control.failures)} of "
          f"{control.checks} checks fail, as they must")

    tally, count = aws_config.compare(report, args.backoff, args.scratch)
    print(f"conformance: AWS shared config against botocore {botocore.__version__}'s loader, {count} files and "
          f"profiles: " + ", ".join(f"{name} {n}" for name, n in tally.items()))
    report.check(tally["both read"] >= 200 and tally["both refused"] >= 200,
                 f"the AWS config corpus covers too little: {tally}")
    control = Report()
    aws_config.compare(control, args.backoff, args.scratch, count=60, swap_profiles=True)
    report.check(control.failures, "negative control: ours reading the default profile matched botocore's profiles")
    print(f"conformance: negative control 'AWS config read for the wrong profile': {len(control.failures)} of "
          f"{control.checks} checks fail, as they must")

    if args.figure:
        draw_figure(totals, args.figure)
    print(f"conformance: {report.checks} checks, {len(report.failures)} failed")
    for failure in report.failures:
        print(f"conformance: FAILED {failure}", file=sys.stderr)
    sys.exit(1 if report.failures else 0)


def go_version(library):
    """The Debian package version of a Go library's source (the sampler is built from it)."""
    package = {"grpc": "golang-google-grpc-dev", "cenkalti": "golang-github-cenkalti-backoff-dev"}[library]
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], check=True, capture_output=True, text=True)
    return out.stdout.split("-")[0]


def quota_retries(budget, kind):
    """Retries in a row the budget text `aws-quota[:max=N][:cost=N][:timeout-cost=N][:throttling-cost=N]`
    grants from full."""
    parameters = dict(part.split("=") for part in budget.split(":")[1:])
    maximum = int(parameters.get("max", 500))
    cost = int(parameters.get("cost", 5))
    cost = int(parameters.get("throttling-cost", cost)) if kind == "throttling" else cost
    return maximum // cost


def draw_figure(totals, directory):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = 4
    rows = (len(totals) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(4 * columns, 3.2 * rows), squeeze=False)
    for axis, (label, library, ours, theirs) in zip(axes.flat, totals):
        for values, name, style in ((theirs, library, "-"), (ours, "backoff --preset", "--")):
            values = sorted(values)
            n = len(values)
            axis.step(values, [(i + 1) / n for i in range(n)], style, where="post", label=name, linewidth=1.4)
        axis.set_title(label, fontsize=9)
        axis.set_xlabel("total wait, s (every attempt fails)", fontsize=8)
        axis.set_ylabel("share of requests", fontsize=8)
        axis.tick_params(labelsize=7)
        axis.legend(fontsize=7, loc="lower right")
    for axis in list(axes.flat)[len(totals):]:
        axis.axis("off")
    figure.suptitle(f"Total wait: each library's own code (solid) and its preset (dashed), {len(totals[0][2]):,} requests each", fontsize=11)
    figure.tight_layout()
    os.makedirs(directory, exist_ok=True)
    for extension in ("png", "svg"):
        figure.savefig(os.path.join(directory, f"conformance.{extension}"), dpi=110)


if __name__ == "__main__":
    main()
