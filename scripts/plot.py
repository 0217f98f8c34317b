"""Figures from backoff's CSV tables (PNG and SVG). Run it through scripts/plot, which installs
matplotlib. Every figure reads columns by name, so any table of the documented shape works, not
only the reference datasets; a missing column is an error that names it (exit 64)."""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "backoff"  # stable element ids: the same data draw the same SVG
import matplotlib.lines  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402
import matplotlib.ticker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "notebooks-data")
MODES = ["none", "full", "equal", "decorrelated"]
# A qualitative palette safe for colour-blind readers (Okabe and Ito), for lines that are not jitter modes.
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
COLOURS = {"none": "#444444", "full": "#1f77b4", "equal": "#2ca02c", "decorrelated": "#d62728"}


# Axis labels in words for the columns figures use; a column not listed is shown by its own name.
WORDS = {
    "sweep_multiplier": "multiplier m",
    "sweep_max_attempts": "attempts per request",
    "sweep_base_s": "base wait b (s)",
    "sweep_cap_s": "cap c (s)",
    "sweep_clients": "clients",
    "sweep_arrivals": "offered load (clients per second)",
    "sweep_degrade_until_s": "capacity restored at (s)",
    "sweep_budget": "retry budget",
    "mean_total_wait_s": "mean total wait (s)",
    "p99_total_wait_s": "99th percentile of the total wait (s)",
    "peak_retry_load": "peak retries per bucket",
    "peak_load": "peak attempts per bucket",
    "give_ups": "requests given up",
    "attempts_per_client": "attempts per client",
    "goodput": "goodput (successes per second)",
}
# What a retry budget's name stands for, for panel titles.
BUDGETS = {
    "none": "no budget",
    "token": "token bucket (gRPC)",
    "aws-quota": "retry quota (AWS SDKs)",
    "ratio": "ratio (Finagle)",
    "concurrency": "concurrency (Envoy)",
}


def words(column):
    return WORDS.get(column, column)


def tick(text):
    """An axis value as a tick shows it: `poisson:800` as 800 (the axis label says what it is)."""
    return text.rsplit(":", 1)[-1] if ":" in text else text


class UsageError(Exception):
    pass


def read(path, needed):
    """The rows of a CSV file as dictionaries; a usage error when a needed column is missing."""
    if not os.path.isfile(path):
        raise UsageError(f"no such file '{path}'")
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [column for column in needed if column not in (reader.fieldnames or [])]
        if missing:
            raise UsageError(f"'{path}' lacks the column(s) {', '.join(missing)}; needed: {', '.join(needed)}")
        return list(reader)


def number(text):
    """A CSV field as a number: yes/no as 1/0, empty or nan as NaN."""
    if text in ("", "nan"):
        return math.nan
    if text in ("yes", "no"):
        return 1.0 if text == "yes" else 0.0
    return float(text)


def axis_key(text):
    """Sort key of an axis value: numbers by value, `name:number` (poisson:800) by the number."""
    for candidate in (text, text.rsplit(":", 1)[-1]):
        try:
            return (0, float(candidate), text)
        except ValueError:
            continue
    return (1, 0.0, text)


def drawn_texts(figure):
    """The texts a reader sees: titles, axis labels, the tick labels within each axis's view,
    legends' and annotations' texts, and the figure's own."""
    texts = list(figure.texts) + ([figure._suptitle] if figure._suptitle else [])
    for legend in figure.legends:
        texts += legend.get_texts()
    for axes in figure.axes:
        texts += [axes.title, axes._left_title, axes._right_title, axes.xaxis.label, axes.yaxis.label] + list(axes.texts)
        if axes.get_legend():
            texts += axes.get_legend().get_texts()
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            margin = (high - low) * 1e-9
            for tick in axis.get_major_ticks():
                if low - margin <= tick.get_loc() <= high + margin:
                    texts += [label for label in (tick.label1, tick.label2) if label.get_visible()]
    unique = list({id(text): text for text in texts}.values())
    return [text for text in unique if text.get_visible() and text.get_text().strip()]


def overlapping_labels(figure):
    """Pairs of drawn texts whose boxes overlap by more than a pixel each way once the figure is
    laid out: a figure with any is not fit to read."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = [(text, text.get_window_extent(renderer)) for text in drawn_texts(figure)]
    pairs = []
    for index, (first, one) in enumerate(boxes):
        for second, other in boxes[index + 1:]:
            overlap_x = min(one.x1, other.x1) - max(one.x0, other.x0)
            overlap_y = min(one.y1, other.y1) - max(one.y0, other.y0)
            if overlap_x > 1 and overlap_y > 1:
                pairs.append((first.get_text(), second.get_text()))
    return pairs


def save(figure, out, name):
    clashes = overlapping_labels(figure)
    if clashes:
        raise UsageError(f"figure '{name}': labels overlap: " + "; ".join(f"'{a}' and '{b}'" for a, b in clashes[:5]))
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, f"{name}.{extension}") for extension in ("png", "svg")]
    for path in paths:
        # No creation date in the files: regenerating a figure changes it only when the data change.
        metadata = {"Date": None} if path.endswith(".svg") else {}
        figure.savefig(path, dpi=120, bbox_inches="tight", metadata=metadata)
    plt.close(figure)
    print(paths[0])


def modes_in(rows):
    present = {row["jitter"] for row in rows}
    return [mode for mode in MODES if mode in present] + sorted(present - set(MODES))


def waits(samples_path, summary_path, out, name="total-waits"):
    """(1) Histograms of total waits per jitter mode, the simulated and the closed-form mean marked."""
    rows = read(samples_path, ["jitter", "total_wait_s"])
    formula = {}
    if summary_path:
        for row in read(summary_path, ["jitter", "formula_mean_total_wait_s"]):
            formula[row["jitter"]] = number(row["formula_mean_total_wait_s"])
    by_mode = defaultdict(list)
    for row in rows:
        by_mode[row["jitter"]].append(number(row["total_wait_s"]))
    modes = modes_in(rows)
    figure, axes = plt.subplots(len(modes), 1, figsize=(8, 2.2 * len(modes)), sharex=True, squeeze=False)
    for axis, mode in zip(axes[:, 0], modes):
        values = by_mode[mode]
        mean = sum(values) / len(values)
        axis.hist(values, bins=80, color=COLOURS.get(mode, "#888888"), alpha=0.75)
        axis.axvline(mean, color="black", linestyle="-", label=f"simulated mean {mean:.3f} s")
        if mode in formula and not math.isnan(formula[mode]):
            axis.axvline(formula[mode], color="orange", linestyle="--", label=f"closed form {formula[mode]:.3f} s")
        axis.set_ylabel(f"requests\n({mode} jitter)")
        axis.legend(loc="upper right", fontsize=8)
    axes[-1, 0].set_xlabel("total wait before the error (s)")
    figure.suptitle(f"Total wait of a request whose every attempt fails ({len(values):,} runs per mode)")
    save(figure, out, name)


def timeline(path, out, name="outage-load"):
    """(2) Attempts and retries per bucket after an outage, per mode, with the expected curve."""
    rows = read(path, ["jitter", "bucket_start_s", "attempts", "retries"])
    modes = modes_in(rows)
    figure, axes = plt.subplots(len(modes), 1, figsize=(9, 2.2 * len(modes)), sharex=True, squeeze=False)
    for axis, mode in zip(axes[:, 0], modes):
        mine = [row for row in rows if row["jitter"] == mode]
        times = [number(row["bucket_start_s"]) for row in mine]
        axis.step(times, [number(row["attempts"]) for row in mine], where="post", color=COLOURS.get(mode), label="attempts")
        axis.step(times, [number(row["retries"]) for row in mine], where="post", color="orange", alpha=0.8, label="retries")
        if "expected_attempts" in mine[0] and mine[0]["expected_attempts"] != "":
            axis.step(times, [number(row["expected_attempts"]) for row in mine], where="post", color="black",
                      linestyle="--", linewidth=0.8, label="expected (convolution)")
        axis.set_yscale("symlog", linthresh=10)
        axis.set_ylabel(f"per bucket\n({mode} jitter)")
        axis.legend(loc="upper right", fontsize=8)
    axes[-1, 0].set_xlabel("time (s)")
    figure.suptitle("Attempts per bucket after an outage, all and retries only")
    save(figure, out, name)


def aws(path, out, name="aws-2015"):
    """(3) The 2015 study: calls and completion time against clients, per strategy."""
    rows = read(path, ["clients", "strategy", "mean_calls", "sd_calls", "mean_completion_s", "sd_completion_s"])
    strategies = list(dict.fromkeys(row["strategy"] for row in rows))
    figure, (calls, times) = plt.subplots(1, 2, figsize=(12, 4.5))
    for strategy in strategies:
        mine = [row for row in rows if row["strategy"] == strategy]
        clients = [number(row["clients"]) for row in mine]
        for axis, mean, sd in ((calls, "mean_calls", "sd_calls"), (times, "mean_completion_s", "sd_completion_s")):
            means = [number(row[mean]) for row in mine]
            sds = [number(row[sd]) for row in mine]
            line, = axis.plot(clients, means, marker=".", label=strategy)
            axis.fill_between(clients, [m - s for m, s in zip(means, sds)], [m + s for m, s in zip(means, sds)],
                              color=line.get_color(), alpha=0.15)
    calls.set(xlabel="clients", ylabel="calls (writes) per run", title="Work")
    times.set(xlabel="clients", ylabel="completion time (s)", title="Completion time", yscale="log")
    calls.legend(fontsize=8)
    figure.suptitle("Exponential backoff and jitter, the 2015 study reproduced (mean ± sd over runs)")
    save(figure, out, name)


def heatmap(path, x, y, value, out, facet="jitter", name="sweep-heatmap", title=None, limits=None):
    """(4) A two-parameter sweep as a heatmap of one column, one panel per value of `facet`, all on
    one colour scale (so panels compare) with one colour bar."""
    rows = read(path, [x, y, value] + ([facet] if facet else []))
    panels = modes_in(rows) if facet == "jitter" else list(dict.fromkeys(row[facet] for row in rows)) if facet else [None]
    xs = sorted({row[x] for row in rows}, key=axis_key)
    ys = sorted({row[y] for row in rows}, key=axis_key)
    values = [number(row[value]) for row in rows if not math.isnan(number(row[value]))]
    low, high = limits if limits else (min(values), max(values))
    figure, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels) + 1.2, 3.6), squeeze=False, sharey=True,
                                layout="constrained")
    for axis, panel in zip(axes[0], panels):
        grid = [[math.nan] * len(xs) for _ in ys]
        for row in rows:
            if facet and row[facet] != panel:
                continue
            grid[ys.index(row[y])][xs.index(row[x])] = number(row[value])
        image = axis.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=low, vmax=high)
        axis.set_xticks(range(len(xs)), [tick(v) for v in xs])
        axis.set_yticks(range(len(ys)), [tick(v) for v in ys])
        axis.set(xlabel=words(x), title=panel or "")
    axes[0][0].set_ylabel(words(y))
    figure.colorbar(image, ax=axes[0].tolist(), shrink=0.9, label=words(value))
    figure.suptitle(title or f"{words(value).capitalize()} by {words(x)} and {words(y)}"
                    + (", per jitter mode" if facet == "jitter" else ""))
    save(figure, out, name)


def outcome_map(path, x, y, value, out, facet, name, title, predicted=None):
    """(4b) A yes/no outcome over a two-parameter sweep, one panel per value of `facet`: two colours
    and a legend, not a colour scale (an outcome is a category, not a quantity). With `predicted`, a
    column of the same outcome from a model (the fluid's `fluid_recovered`), the model's boundary is
    drawn over the panels where it answers: below the line it predicts recovery, above it not."""
    rows = read(path, [x, y, value, facet] + ([predicted] if predicted else []))
    panels = list(dict.fromkeys(row[facet] for row in rows))
    xs = sorted({row[x] for row in rows}, key=axis_key)
    ys = sorted({row[y] for row in rows}, key=axis_key)
    colours = {"yes": "#2ca02c", "no": "#d62728"}
    figure, axes = plt.subplots(1, len(panels), figsize=(2.9 * len(panels), 3.4), squeeze=False, sharey=True,
                                layout="constrained")
    for axis, panel in zip(axes[0], panels):
        for row in rows:
            if row[facet] != panel or row[value] not in colours:
                continue
            axis.add_patch(matplotlib.patches.Rectangle((xs.index(row[x]) - 0.5, ys.index(row[y]) - 0.5), 1, 1,
                                                        color=colours[row[value]], linewidth=0))
        if predicted:
            boundary = []
            for column, at in enumerate(xs):
                mine = [row for row in rows if row[facet] == panel and row[x] == at and row[predicted] in colours]
                if mine:
                    stuck = [ys.index(row[y]) for row in mine if row[predicted] == "no"]
                    level = (min(stuck) if stuck else len(ys)) - 0.5
                    boundary += [(column - 0.5, level), (column + 0.5, level)]
            if boundary:
                axis.plot([p[0] for p in boundary], [p[1] for p in boundary], color="black", linewidth=1.6,
                          linestyle="--")
        axis.set_xlim(-0.5, len(xs) - 0.5)
        axis.set_ylim(-0.5, len(ys) - 0.5)
        axis.set_xticks(range(len(xs)), [tick(v) for v in xs], fontsize=8)
        axis.set_yticks(range(len(ys)), [tick(v) for v in ys], fontsize=8)
        axis.set_title(BUDGETS.get(panel, panel), fontsize=9)
        axis.set_xlabel(words(x), fontsize=8)
    axes[0][0].set_ylabel(words(y))
    handles = [matplotlib.patches.Patch(color=colours["yes"], label="recovered"),
               matplotlib.patches.Patch(color=colours["no"], label="stuck")]
    if predicted:
        handles.append(matplotlib.lines.Line2D([], [], color="black", linestyle="--",
                                               label="fluid model: stuck above the line"))
    figure.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=9)
    figure.suptitle(title)
    save(figure, out, name)


def scaled(path, out, start=200.0, name="metafor"):
    """(4c) Runs of one server scaled by N against its fluid model: the share of requests served
    per trigger length, one line per N (told apart by `arrivals`), and the fluid's as a dashed line."""
    rows = read(path, ["arrivals", "sweep_degrade_until_s", "successes", "clients", "fluid_goodput"])
    figure, axis = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
    for arrivals in dict.fromkeys(row["arrivals"] for row in rows):
        mine = sorted((row for row in rows if row["arrivals"] == arrivals),
                      key=lambda row: number(row["sweep_degrade_until_s"]))
        axis.plot([number(row["sweep_degrade_until_s"]) - start for row in mine],
                  [number(row["successes"]) / number(row["clients"]) for row in mine], marker="o",
                  label=f"simulated, arrivals {arrivals}")
    first = sorted((row for row in rows if row["arrivals"] == rows[0]["arrivals"]),
                   key=lambda row: number(row["sweep_degrade_until_s"]))
    axis.plot([number(row["sweep_degrade_until_s"]) - start for row in first],
              [number(row["fluid_goodput"]) for row in first], color="black", linestyle="--", label="fluid model")
    axis.set(xlabel="capacity halved for (s)", ylabel="share of requests served", ylim=(0, 1.05))
    axis.legend(fontsize=8)
    figure.suptitle("Metafor's server scaled by N: the runs close in on the fluid model", fontsize=10)
    save(figure, out, name)


def overload(paths, out, window=None, modes=None, name="overload", labels=None,
             title="Overload: capacity drops for a while, retries keep coming"):
    """(5) An overload: goodput (successes per second) and the queue over time, per table and mode.
    `labels` says what each table is (default: its file name)."""
    figure, (goodput, queue) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    for index, path in enumerate(paths):
        rows = read(path, ["jitter", "bucket_start_s", "successes", "peak_queue", "rejected"])
        label = labels[index] if labels else os.path.splitext(os.path.basename(path))[0]
        for mode in modes_in(rows):
            if modes and mode not in modes:
                continue
            mine = [row for row in rows if row["jitter"] == mode]
            if len(mine) < 2:
                continue
            times = [number(row["bucket_start_s"]) for row in mine]
            width = times[1] - times[0]
            text = f"{label}, jitter {mode}"
            goodput.plot(times, [number(row["successes"]) / width for row in mine], label=text)
            queue.plot(times, [number(row["peak_queue"]) for row in mine], label=text)
    for axis in (goodput, queue):
        if window:
            axis.axvspan(window[0], window[1], color="red", alpha=0.08, label="degraded capacity")
    goodput.set(ylabel="successes per second", title="Goodput")
    queue.set(ylabel="queue length (peak per bucket)", xlabel="time (s)", title="Queue")
    goodput.legend(fontsize=7, ncol=2)
    figure.suptitle(title)
    save(figure, out, name)


def ratelimit(paths, labels, out, name="ratelimit", limit=10, title=None):
    """(10) Client-side rate limiting: for each simulate table against a rate-limited server and
    its --timeline table (PATH and PATH without -timeline), the limiter's fill rate and the
    throttles a second over time, and the p99 and mean total wait (token waits included)."""
    figure = plt.figure(figsize=(10, 8))
    grid = figure.add_gridspec(3, 1, height_ratios=[2, 2, 1.4], hspace=0.55)
    fill = figure.add_subplot(grid[0])
    throttles = figure.add_subplot(grid[1], sharex=fill)
    waits = figure.add_subplot(grid[2])
    p99s, means = [], []
    for index, (path, label) in enumerate(zip(paths, labels)):
        color = f"C{index}"  # one colour per table in every panel
        rows = read(path, ["bucket_start_s", "failures", "successes", "fill_rate"])
        times = [number(row["bucket_start_s"]) for row in rows]
        width = times[1] - times[0] if len(times) > 1 else 1
        rates = [number(row["fill_rate"]) if row["fill_rate"] else float("nan") for row in rows]
        if any(rate == rate for rate in rates):
            fill.step(times, rates, where="post", label=label, color=color)
        throttles.step(times, [number(row["failures"]) / width for row in rows], where="post", label=label,
                       color=color)
        main = read(path.replace("-timeline.csv", ".csv"), ["p99_total_wait_s", "mean_total_wait_s"])[0]
        p99s.append(number(main["p99_total_wait_s"]))
        means.append(number(main["mean_total_wait_s"]))
    fill.axhline(limit, color="grey", linestyle=":", linewidth=1, label=f"the server's limit, {limit:g}/s")
    fill.set(ylabel="fill rate (tokens/s)", title="The client-side limiter's fill rate")
    throttles.set(ylabel="throttles per second", xlabel="time (s)", title="Throttling errors the server sent")
    fill.legend(fontsize=8)
    throttles.legend(fontsize=8)
    positions = range(len(labels))
    waits.barh([p - 0.2 for p in positions], p99s, height=0.4, color=[f"C{i}" for i in positions], label="p99")
    waits.barh([p + 0.2 for p in positions], means, height=0.4, color=[f"C{i}" for i in positions], alpha=0.45,
               label="mean")
    waits.set_yticks(list(positions), labels, fontsize=8)
    waits.invert_yaxis()
    waits.set(xlabel="seconds", title="Total wait per request, backoff and token waits (dark: p99, light: mean)")
    figure.suptitle(title or f"50 clients of 12 requests against ratelimit:{limit:g}/s: AWS standard and adaptive "
                    "retry modes")
    save(figure, out, name)


def stack(names, labels, out, window=(5, 10), name="stack"):
    """(12) Retries across a stack: for each configuration (notebooks-data/stack-NAME.csv, its
    -timeline.csv and -layers.csv), the server's load over time, and the attempts each tier sends
    per client request (the amplification so far), and the database's refusals and orphaned work."""
    figure = plt.figure(figsize=(10, 8))
    grid = figure.add_gridspec(2, 2, height_ratios=[2, 1.5], hspace=0.45, wspace=0.35)
    load = figure.add_subplot(grid[0, :])
    tiers = figure.add_subplot(grid[1, 0])
    orphans = figure.add_subplot(grid[1, 1])
    for index, (key, label) in enumerate(zip(names, labels)):
        color = f"C{index}"
        rows = read(os.path.join(DATA, f"stack-{key}-timeline.csv"), ["bucket_start_s", "attempts"])
        times = [number(row["bucket_start_s"]) for row in rows]
        width = times[1] - times[0] if len(times) > 1 else 1
        load.step(times, [number(row["attempts"]) / width for row in rows], where="post", label=label, color=color,
                  linewidth=1)
        layers = read(os.path.join(DATA, f"stack-{key}-layers.csv"), ["layer", "name", "amplification"])
        tiers.plot([row["name"] for row in layers], [number(row["amplification"]) for row in layers], marker="o",
                   label=label, color=color)
        main = read(os.path.join(DATA, f"stack-{key}.csv"), ["orphaned_attempts", "rejected"])[0]
        orphans.barh(index - 0.2, number(main["rejected"]), height=0.4, color=color)
        orphans.barh(index + 0.2, number(main["orphaned_attempts"]), height=0.4, color=color, alpha=0.45)
    load.axvspan(window[0], window[1], color="red", alpha=0.08, label="database at 30 % capacity")
    load.set(ylabel="attempts per second at the database", xlabel="time (s)", yscale="log",
             title="The database's load (requests arrive at 400/s)")
    load.legend(fontsize=8)
    tiers.set(ylabel="attempts sent per client request", ylim=(0, None), title="Amplification, tier by tier")
    tiers.tick_params(axis="x", labelsize=8)
    orphans.set_yticks([])
    orphans.invert_yaxis()
    orphans.set(xlabel="attempts (colours as above)",
                title="Refused by the full queue (dark);\nserved for nobody, orphaned (light)")
    figure.suptitle("Clients, a frontend and a backend in front of a database that degrades for 5 s")
    save(figure, out, name)


def hedging(paths, replicas, out, name="hedging"):
    """(13) Hedged requests under load: the 99th percentile of the response time against the
    utilisation without copies, one panel per service time (columns) and replica count (rows), one
    line per hedge, on one shared scale. Vulimiri et al.'s line (1/3) is marked."""
    needed = ["sweep_service", "sweep_hedge", "sweep_arrivals", "replicas", "p99_response_s"]
    tables = [read(path, needed) for path in paths]
    services = list(dict.fromkeys(row["sweep_service"] for row in tables[0]))
    hedges = list(dict.fromkeys(row["sweep_hedge"] for row in tables[0]))
    labels = {"none": "one copy", "on:delay=0ms:cancel=no": "two copies at once, losers run on",
              "on:delay=0ms:cancel=yes": "two copies at once, loser cancelled",
              "on:delay=30ms:cancel=yes": "second copy after 30 ms, loser cancelled"}
    figure, grid = plt.subplots(len(tables), len(services), figsize=(11, 3.6 * len(tables) + 0.8), sharex=True,
                                sharey=True, squeeze=False, layout="constrained")
    for rows, axes, count in zip(tables, grid, replicas):
        for axis, service in zip(axes, services):
            for index, hedge in enumerate(hedges):
                points = sorted((number(tick(row["sweep_arrivals"])) / (count * 100), number(row["p99_response_s"]) * 1e3)
                                for row in rows if row["sweep_service"] == service and row["sweep_hedge"] == hedge)
                axis.plot([x for x, _ in points], [y for _, y in points], marker="osD^"[index % 4], markersize=4,
                          color=OKABE_ITO[index % len(OKABE_ITO)], label=labels.get(hedge, hedge))
            axis.axvline(1 / 3, color="grey", linestyle=":", linewidth=1)
            axis.set(yscale="log", title=f"{service} service, {count} replicas of 1 worker")
            axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1, 2, 5)))
            axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
            axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            axis.grid(alpha=0.3, which="both")
    for axis in grid[-1]:
        axis.set_xlabel("utilisation without copies (offered load / capacity)")
    for axes in grid:
        axes[0].set_ylabel("99th percentile response (ms)")
    grid[0][0].legend(fontsize=8, loc="upper left")
    figure.suptitle("Hedging under load: copies cut the tail until the load they add queues them (dotted: 1/3)")
    save(figure, out, name)


def black_hole(path, out, name="black-hole"):
    """(14) One host of K that fails fast, under each balancer: the share of copies it draws and the
    share of requests that succeed, against the offered load. Dotted: 1 - (1 - 1/K)^k, the share a
    least-request balancer of k choices sends it while the other hosts hold work (k = 1: random).
    Dashed: the full scan with outlier detection, which ejects the host."""
    table = read(path, ["sweep_arrivals", "sweep_balancer", "sweep_outlier_detection", "replicas", "faulty_host_share",
                        "successes", "clients"])
    rows = [row for row in table if row["sweep_outlier_detection"] == "none"]
    ejecting = [row for row in table if row["sweep_outlier_detection"] != "none"
                and row["sweep_balancer"] == "least-request:choices=all"]
    balancers = list(dict.fromkeys(row["sweep_balancer"] for row in rows))
    replicas = number(rows[0]["replicas"])
    figure, (share, success) = plt.subplots(1, 2, figsize=(11, 4.2), sharex=True, layout="constrained")
    for index, balancer in enumerate(balancers):
        mine = sorted((number(tick(row["sweep_arrivals"])), row) for row in rows if row["sweep_balancer"] == balancer)
        xs = [x for x, _ in mine]
        colour = OKABE_ITO[index % len(OKABE_ITO)]
        share.plot(xs, [number(row["faulty_host_share"]) for _, row in mine], marker="osD^"[index % 4],
                   markersize=4, color=colour, label=balancer)
        success.plot(xs, [number(row["successes"]) / number(row["clients"]) for _, row in mine],
                     marker="osD^"[index % 4], markersize=4, color=colour, label=balancer)
        choices = {"random": 1, "p2c": 2}.get(balancer)
        if choices is None and balancer.startswith("least-request:choices=") and balancer[-3:] != "all":
            choices = int(balancer.split("=")[1])
        if choices is not None:
            share.axhline(1 - (1 - 1 / replicas) ** choices, color=colour, linestyle=":", linewidth=1)
    if ejecting:
        mine = sorted((number(tick(row["sweep_arrivals"])), row) for row in ejecting)
        label = "full scan, with outlier detection"
        share.plot([x for x, _ in mine], [number(row["faulty_host_share"]) for _, row in mine], color="black",
                   linestyle="--", marker="x", markersize=5, label=label)
        success.plot([x for x, _ in mine], [number(row["successes"]) / number(row["clients"]) for _, row in mine],
                     color="black", linestyle="--", marker="x", markersize=5, label=label)
    share.set(ylabel="share of copies sent to the fail-fast host", ylim=(0, 1))
    success.set(ylabel="share of requests that succeeded", ylim=(0, 1.02))
    for axis in (share, success):
        axis.set_xlabel("offered load (requests per second)")
        axis.grid(alpha=0.3)
    share.legend(fontsize=8, loc="upper left")
    figure.suptitle(f"The least-request black hole: 1 host of {replicas:g} fails in 1 ms, the others take 50 ms "
                    "(dotted: 1 - (1 - 1/K)^k)")
    save(figure, out, name)


def presets(paths, out, name="presets-outage"):
    """(6) The presets side by side in one outage, one row of panels per table (say, the defaults and
    the same with more attempts): what users wait, who succeeds, the retry peak, and the share of
    waits that sit exactly at the cap (where clamped herds re-form)."""
    label = "sweep_preset"
    tables = [read(path, [label, "clients", "server", "max_attempts", "p99_total_wait_s", "successes", "peak_retry_load",
                          "at_cap_fraction"]) for path in paths]
    panels = [
        ("p99 total wait (s)", lambda row: number(row["p99_total_wait_s"])),
        ("success fraction", lambda row: number(row["successes"]) / number(row["clients"])),
        ("peak retries per bucket", lambda row: number(row["peak_retry_load"])),
        ("share of waits at the cap", lambda row: number(row["at_cap_fraction"])),
    ]
    names = [row[label] for row in tables[0]]
    figure, grid = plt.subplots(len(tables), len(panels), figsize=(16, len(tables) * (0.36 * len(names) + 1.2) + 0.6),
                                sharey=True, squeeze=False)
    positions = list(range(len(names)))
    for rows, axes in zip(tables, grid):
        attempts = sorted({row["max_attempts"] for row in rows}, key=axis_key)
        for axis, (title, value) in zip(axes, panels):
            values = [value(row) for row in rows]
            if title.startswith("share") and all(math.isnan(v) or v == 0 for v in values):
                # Nothing to draw: say so instead of an empty axis.
                axis.set_xlim(0, 1)
                axis.set_xticks([])
                axis.text(0.5, len(names) / 2 - 0.5, "no wait reaches the cap\nwithin these attempt limits",
                          ha="center", va="center", fontsize=9, color="#555555")
                axis.set_title(title if len(attempts) > 1 else f"{title}, {attempts[0]} attempts", fontsize=9)
                continue
            axis.barh(positions, [0 if math.isnan(v) else v for v in values], color="#1f77b4")
            for position, v in zip(positions, values):
                axis.annotate("n/a" if math.isnan(v) else f"{v:.3g}", (0 if math.isnan(v) else v, position),
                              xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)
            axis.set_title(title if len(attempts) > 1 else f"{title}, {attempts[0]} attempts", fontsize=9)
            axis.margins(x=0.25)
        axes[0].set_yticks(positions, [row[label] for row in rows], fontsize=8)
    grid[0][0].invert_yaxis()
    first = tables[0][0]
    figure.suptitle(f"Library defaults against one outage ({first['server']}, {int(number(first['clients'])):,} clients "
                    "failing at t = 0)")
    save(figure, out, name)


def trace(trace_path, timeline_path, out, name="incident-replay"):
    """(7) An incident replayed: the trace's failure probability over time, and the attempts per
    bucket each jitter mode sends while it lasts."""
    steps = read(trace_path, ["time_s", "failure_probability"])
    rows = read(timeline_path, ["jitter", "bucket_start_s", "attempts", "retries"])
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True, gridspec_kw={"height_ratios": [1, 2]})
    times = [number(row["time_s"]) for row in steps]
    probabilities = [number(row["failure_probability"]) for row in steps]
    end = max(number(row["bucket_start_s"]) for row in rows)
    top.step(times + [end], probabilities + probabilities[-1:], where="post", color="#d62728")
    top.set(ylabel="failure probability", ylim=(0, 1.05), title="The incident (the trace)")
    for mode in modes_in(rows):
        mine = [row for row in rows if row["jitter"] == mode]
        bottom.plot([number(row["bucket_start_s"]) for row in mine], [number(row["attempts"]) for row in mine],
                    label=mode, color=COLOURS.get(mode), linewidth=1)
    bottom.set(xlabel="time (s)", ylabel="attempts per bucket", title="The load it draws")
    bottom.legend(fontsize=8)
    save(figure, out, name)


def tune(path, out, x="peak_retry_load", name="tune-pareto"):
    """(8) A tune run: every candidate's objective against a constrained column, the feasible ones
    highlighted, the Pareto-optimal ones ringed, the winner (the first row) circled."""
    rows = read(path, ["feasible", "pareto", x])
    objective = [column for column in rows[0] if column not in ("candidate", "phase", "jitter", "base_s", "multiplier", "cap_s",
                 "max_attempts", "schedule", "decorrelated_factor", "max_elapsed_s", "cap_mode", "feasible", "pareto")][0]
    figure, axis = plt.subplots(figsize=(8, 5))
    for feasible, colour, label in (("no", "#bbbbbb", "infeasible"), ("yes", "#1f77b4", "feasible")):
        mine = [row for row in rows if row["feasible"] == feasible]
        axis.scatter([number(row[x]) for row in mine], [number(row[objective]) for row in mine], s=14, color=colour, label=label)
    # Pareto on the objective and every constrained column: in this projection, marked, not joined.
    front = [row for row in rows if row["pareto"] == "yes"]
    axis.scatter([number(row[x]) for row in front], [number(row[objective]) for row in front], s=40, facecolors="none",
                 edgecolors="#d62728", label="Pareto (objective and every constrained column)")
    best = rows[0]
    axis.scatter([number(best[x])], [number(best[objective])], s=120, facecolors="none", edgecolors="black", label="chosen")
    axis.set(xlabel=words(x), ylabel=words(objective), yscale="log",
             title=f"tune: {len(rows)} candidates, the chosen one circled")
    axis.legend(fontsize=8)
    save(figure, out, name)


def everything(out):
    """The figures of the reference datasets (scripts/make-notebooks-data writes them)."""
    waits(os.path.join(DATA, "waits-default-samples.csv"), os.path.join(DATA, "waits-default.csv"), out)
    timeline(os.path.join(DATA, "outage-10k-timeline.csv"), out)
    aws(os.path.join(DATA, "aws-2015.csv"), out)
    heatmap(os.path.join(DATA, "sweep-multiplier-attempts.csv"), "sweep_multiplier", "sweep_max_attempts",
            "mean_total_wait_s", out)
    overload([os.path.join(DATA, "overload-ignore-timeline.csv"), os.path.join(DATA, "overload-honor-timeline.csv")],
             out, window=(5, 8), modes=["none", "full"], labels=["Retry-After ignored", "Retry-After honoured"])
    outcome_map(os.path.join(DATA, "metastability-map.csv"), "sweep_arrivals", "sweep_degrade_until_s", "recovered", out,
                facet="sweep_budget", name="metastability-map", predicted="fluid_recovered",
                title="Does goodput recover after capacity drops to 30 % at 5 s? (capacity 1,000 clients per second)")
    outcome_map(os.path.join(DATA, "queue-discipline-map.csv"), "sweep_arrivals", "sweep_degrade_until_s", "recovered",
                out, facet="sweep_queue_discipline", name="queue-discipline-map", predicted="fluid_recovered",
                title="Does goodput recover without a budget, per queue discipline? (capacity 1,000 clients per second)")
    presets([os.path.join(DATA, "presets-outage.csv"), os.path.join(DATA, "presets-outage-10-attempts.csv")], out)
    trace(os.path.join(DATA, "incident-trace.csv"), os.path.join(DATA, "incident-replay-timeline.csv"), out)
    tune(os.path.join(DATA, "tune-outage.csv"), out)
    modes = ["standard mode (no limiter)", "adaptive, one shared limiter", "adaptive, a limiter per client (mean)"]
    ratelimit([os.path.join(DATA, f"ratelimit-{name}-timeline.csv") for name in
               ("standard", "adaptive-shared", "adaptive-per-client")], modes, out)
    ratelimit([os.path.join(DATA, f"ratelimit-hot-resource-{name}-timeline.csv") for name in
               ("standard", "adaptive-shared", "adaptive-per-client")], modes, out, name="ratelimit-hot-resource",
              limit=2, title="50 clients of 60 requests 200 ms apart, a tenth of them to a resource that admits 2/s "
                             "(ratelimit:2/s:share=0.1)")
    stack(["sre-4-everywhere", "bottom-only", "ratio-budgets", "aws-quota-top"],
          ["4 attempts at every tier", "retries only at the bottom", "10 % ratio budgets at every tier",
           "AWS SDK standard (quota) at the top"], out)
    hedging([os.path.join(DATA, f"hedging-{count}-replicas.csv") for count in (40, 2)], [40, 2], out)
    scaled(os.path.join(DATA, "metafor.csv"), out)
    black_hole(os.path.join(DATA, "black-hole.csv"), out)
    disciplines = ["fifo", "lifo", "adaptive-lifo", "codel"]
    overload([os.path.join(DATA, f"bimodal-{name}-timeline.csv") for name in disciplines], out, window=(2, 3),
             name="bimodal", labels=[f"--queue-discipline {name}" for name in disciplines],
             title="Brooker's bimodal server: 80 % load, 50 ms timeouts re-offered after 15 ms, capacity at 30 % "
                   "for 1 s")


def main(argv):
    parser = argparse.ArgumentParser(prog="scripts/plot", description=__doc__)
    parser.add_argument("--out", default=None, help="folder for the figures (default: ./figures, or notebooks-data/figures for 'all')")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("all", help="the figures of every reference dataset")
    w = commands.add_parser("waits", help="total-wait histograms: SAMPLES from waits --samples")
    w.add_argument("samples")
    w.add_argument("--summary", help="the waits table, for the closed-form means")
    t = commands.add_parser("timeline", help="attempts per bucket: a simulate --timeline table")
    t.add_argument("table")
    a = commands.add_parser("aws-2015", help="the 2015 study: scripts/reproduce-aws-2015's table")
    a.add_argument("table")
    h = commands.add_parser("heatmap", help="a two-parameter sweep")
    h.add_argument("table")
    h.add_argument("--x", required=True)
    h.add_argument("--y", required=True)
    h.add_argument("--value", default="mean_total_wait_s")
    h.add_argument("--facet", default="jitter", help="one panel per value of this column ('' for none)")
    o = commands.add_parser("overload", help="goodput and queue over time: simulate --timeline tables of a capacity server")
    o.add_argument("tables", nargs="+")
    o.add_argument("--window", nargs=2, type=float, metavar=("FROM", "UNTIL"), help="shade the degradation window (s)")
    o.add_argument("--modes", nargs="+", help="only these jitter modes")
    o.add_argument("--labels", nargs="+", help="what each table is, in the legend (default: the file names)")
    u = commands.add_parser("tune", help="a tune table: objective against a constrained column, the Pareto front")
    u.add_argument("table")
    u.add_argument("--x", default="peak_retry_load")
    r = commands.add_parser("trace", help="an incident replayed: the trace and a simulate --timeline table of it")
    r.add_argument("trace")
    r.add_argument("timeline")
    p = commands.add_parser("presets", help="presets side by side: sweep simulate --preset tables, a row each")
    p.add_argument("tables", nargs="+")
    options = parser.parse_args(argv)
    out = options.out or (os.path.join(DATA, "figures") if options.command == "all" else "figures")
    try:
        if options.command == "all":
            everything(out)
        elif options.command == "waits":
            waits(options.samples, options.summary, out)
        elif options.command == "timeline":
            timeline(options.table, out)
        elif options.command == "aws-2015":
            aws(options.table, out)
        elif options.command == "heatmap":
            heatmap(options.table, options.x, options.y, options.value, out, facet=options.facet or None)
        elif options.command == "overload":
            if options.labels and len(options.labels) != len(options.tables):
                raise UsageError(f"--labels takes one label per table ({len(options.tables)}), got {len(options.labels)}")
            overload(options.tables, out, window=options.window, modes=options.modes, labels=options.labels)
        elif options.command == "presets":
            presets(options.tables, out)
        elif options.command == "tune":
            tune(options.table, out, x=options.x)
        elif options.command == "trace":
            trace(options.trace, options.timeline, out)
    except UsageError as error:
        print(f"plot: {error}", file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
