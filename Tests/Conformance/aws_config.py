"""`backoff --config FILE --config-route PROFILE` against botocore's own loader, file by file.

A seeded corpus of AWS shared config files (hand-written cases and random mixes of sections,
lines and line ends, hostile ones included) is read by botocore (a Session on the file, a client
made, its retry mode and attempts taken from its config and counted by driving it against a fake
HTTP layer that fails every attempt) and by `backoff formula --config`. For each file and profile:
both refuse it, or both read the same retry mode and the same attempts. Two differences are ours
on purpose and are counted apart: a file with nothing but blank lines and comments (botocore takes
its defaults; `--config` cannot tell an empty file's kind), and more attempts than the model takes.
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile

# Sections and lines botocore reads, and odd or broken ones, drawn less often.
SECTIONS = ["[default]", "[profile a]", '[profile "a b"]', "[profile b]", "[DEFAULT]", "[preview]",
            "[profile default]"]
ODD_SECTIONS = [
    "[profile  a]", "[profilex a]", "[profile a", " [profile b]", "[profile 'b']", "[profile b] trailing",
    "[profile a b]", "[Default]", "[profile]", "[]", "[profile \"open]",
]
# Lines by key: a section takes one line of each key it draws (comments and blanks any number).
LINES = {
    "retry_mode": ["retry_mode = standard", "retry_mode=adaptive", "retry_mode: legacy", "RETRY_MODE = legacy",
                   "retry_mode\t=\tlegacy"],
    "max_attempts": ["max_attempts = 4", "max_attempts=+5", "max_attempts = 1_0", "max_attempts = 1",
                     "max_attempts = \u0663", "max_attempts = 7", "Max_Attempts: 8", "max_attempts = 2\u00a0",
                     "\u00a0max_attempts = 3"],
    "region": ["region = us-east-1"], "output": ["output = json"],
    "note": ["note =", "note =\n  addressing_style = path", "note = one\n  two"],
    "defaults_mode": ["defaults_mode = standard", "defaults_mode = Mobile"],
    "#": ["# comment", "; comment", "   # indented comment", "", "  "],
}
BAD_LINES = [
    "retry_mode = Standard", "retry_mode =", "retry_mode = adaptive # inline", "  max_attempts = 6",
    "max_attempts = 0", "max_attempts = -2", "max_attempts = 3.5", "max_attempts = 2 # two",
    "max_attempts = 99999999999", "  bogus", "defaults_mode = fast", "just words", "= 3",
]
ENDS = ["\n", "\r\n", "\r"]
# Each file is read for no profile, for one it lacks, and for each it may have.
PROFILES = {"[default]": "default", "[profile default]": "default", "[profile a]": "a", '[profile "a b"]': "a b",
            "[profile b]": "b", "[profile  a]": "a", "[profilex a]": "a", "[profile 'b']": "b"}

HAND_WRITTEN = [
    "[default]\nretry_mode = adaptive\nmax_attempts = 10\n",
    "[default]\nregion = us-east-1\n\n[profile batch]\nretry_mode = legacy\n",
    "[DEFAULT]\nmax_attempts = 9\n[profile a]\nretry_mode = standard\n[profile b]\nmax_attempts = 2\n",
    "[profile a]\nmax_attempts = 5\n[profile  a]\nmax_attempts = 6\n",
    "[profile default]\nmax_attempts = 4\n[default]\nmax_attempts = 6\n",
    "[default]\nmax_attempts = 4\n[profile default]\nmax_attempts = 6\n",
    "[default]\nmax_attempts = 4\n  5\n",
    "[default]\nmax_attempts =\n  5\n",
    "[default]\ns3 =\n  addressing_style = path\n\n  signature_version = s3v4\nmax_attempts = 2\n",
    "[default]\nmax_attempts = 3\n[default]\n",
    "[default]\nmax_attempts = 3\nMAX_ATTEMPTS = 4\n",
    "\ufeff[default]\nmax_attempts = 3\n",
    "# only a comment\n",
    "",
    "max_attempts = 3\n[default]\n",
    "[default]\nretry_mode = legacy\nmax_attempts = 1\n",
    "[profile \"a b\"]\nretry_mode = adaptive\n",
    "[default]\nmax_attempts = 4\n\n\n  6\n",
    "[default]\nmax_attempts = 4\n# comment\n  6\n",
]


def corpus(count, seed):
    """The hand-written files, then `count` random ones, each with its text."""
    rng = random.Random(seed)
    files = list(HAND_WRITTEN)
    for _ in range(count):
        parts = []
        # Mostly distinct sections and keys (a repeated one is an error, and the hand-written files
        # have those); now and then an odd section or a bad line.
        for header in rng.sample(SECTIONS, rng.randint(1, 4)):
            parts.append(rng.choice(ODD_SECTIONS) if rng.random() < 0.1 else header)
            parts += [rng.choice(BAD_LINES) if rng.random() < 0.05 else rng.choice(LINES[key])
                      for key in rng.sample(sorted(LINES), rng.randint(0, 5))]
        text = rng.choice(ENDS).join(parts) + (rng.choice(ENDS) if rng.random() < 0.8 else "")
        if rng.random() < 0.1:
            parts.insert(0, rng.choice(LINES["max_attempts"]))
            text = "\n".join(parts)
        files.append(text)
    return files


READER = r"""
import json, os, sys, time
import botocore, botocore.session
from botocore.awsrequest import AWSResponse

class Body:
    def __init__(self, data): self.data = data
    def stream(self, **kwargs): yield self.data
error = b"<ErrorResponse><Error><Type>Receiver</Type><Code>InternalFailure</Code><Message>m</Message></Error></ErrorResponse>"
sends = []
def send(request):
    sends.append(1)
    return AWSResponse(request.url, 500, {}, Body(error))
time.sleep = lambda seconds: None

for line in sys.stdin:
    path, profile = json.loads(line)
    os.environ["AWS_CONFIG_FILE"] = path
    try:
        session = botocore.session.Session(profile=profile)
        client = session.create_client(
            "sts", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
        retries = client.meta.config.retries
        attempts = retries.get("total_max_attempts")
        if attempts is None or attempts <= 30:
            # Count what the client does (a fresh client's quota grants 35 retries in a row).
            client._endpoint.http_session.send = send
            del sends[:]
            try: client.get_caller_identity()
            except Exception: pass
            attempts = len(sends)
        answer = {"mode": retries["mode"], "attempts": attempts}
    except Exception as e:
        answer = {"error": type(e).__name__}
    print(json.dumps(answer), flush=True)
"""


def botocore_answers(cases):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_SHARED_CREDENTIALS_FILE": os.devnull, "AWS_EC2_METADATA_DISABLED": "true",
                "PYTHONUTF8": "1"})
    result = subprocess.run([sys.executable, "-c", READER], input="".join(json.dumps(c) + "\n" for c in cases),
                            capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in result.stdout.splitlines()]


REMARK = re.compile(r"retry_mode (\w+), max_attempts (\d+)")


def our_answer(binary, path, profile):
    command = [binary, "formula", "--config", path] + (["--config-route", profile] if profile is not None else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return {"status": result.returncode, "message": result.stderr.strip()}
    remark = REMARK.search(result.stderr)
    column = result.stdout.splitlines()[0].split(",").index("max_attempts")
    attempts = int(result.stdout.splitlines()[1].split(",")[column])
    return {"status": 0, "mode": remark and remark.group(1), "attempts": attempts,
            "said": remark and int(remark.group(2))}


def compare(report, binary, scratch, count=300, seed=20151, swap_profiles=False):
    """Every file and profile of the corpus read both ways; returns the tallies. With
    `swap_profiles` (a negative control), ours reads the default profile whatever botocore read."""
    folder = tempfile.mkdtemp(dir=scratch)
    cases = []
    for index, text in enumerate(corpus(count, seed)):
        path = os.path.join(folder, f"config-{index}")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        named = sorted({name for header, name in PROFILES.items() if header in text})
        cases += [(path, profile) for profile in [None, "missing"] + named]
    theirs = botocore_answers(cases)
    tally = {"both read": 0, "both refused": 0, "empty (ours refuses)": 0, "beyond the model (ours refuses)": 0}
    for (path, profile), their in zip(cases, theirs):
        ours = our_answer(binary, path, None if swap_profiles else profile)
        where = f"AWS config {os.path.basename(path)} profile {profile!r}"
        if "error" in their:
            report.check(ours["status"] == 64,
                         f"{where}: botocore refuses it ({their['error']}), ours reads {ours}")
            tally["both refused"] += ours["status"] == 64
        elif ours["status"] != 0:
            if "nothing but blank lines and comments" in ours["message"]:
                tally["empty (ours refuses)"] += 1
            elif "more than the model takes" in ours["message"]:
                tally["beyond the model (ours refuses)"] += 1
            else:
                report.check(False, f"{where}: botocore reads {their}, ours refuses it: {ours['message']}")
        else:
            same = (ours["mode"], ours["attempts"], ours["said"]) == (their["mode"], their["attempts"], their["attempts"])
            report.check(same, f"{where}: botocore reads {their}, ours {ours}")
            tally["both read"] += same
    return tally, len(cases)
