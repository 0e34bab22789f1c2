"""What benchmarks/byoa_calls.py prints of its results: the table, the bounds, the failures,
the sizing lines and the collector's share, per target and number of wallets."""

import os
import statistics
from pathlib import Path

from benchmarks._figures import spread, versus

#: Issue 36 keeps it: the plain call path's CPU per call within this many times the Node anchor's.
BOUND = 2.5
#: Issue 52 asks for it at W = 100: within this many times the Node anchor's.
W100_BOUND = 2.0
#: Issue 59 asks for it at every W: one process within this many times the Python floor's.
FLOOR_BOUND = 3.0
#: Issue 59 asks for it: across two processes at most this much CPU per call, with none failed.
ACROSS_BOUND_US = 1500


def _one_process(names):
    """Return our one-process targets (new and baseline): neither an anchor nor two processes."""
    return [name for name in names if name not in ("node", "python") and " 2p" not in name]


def _median(results, name, key):
    return statistics.median(row["cpu_us"] for row in results[name][key])


def print_table(results, names, args):
    compared = f"vs {args.baseline_label}" if args.baseline else "vs 2p"
    header = (
        f"{'configuration':<36}{'W':>7}  {'CPU us/call':<20}{compared:<15}{'x node':<20}{'calls/s':<20}"
        f"{'p50 ms':<25}{'p99 ms':<27}{'failed':<8}{'Redis cmds/call' if args.two_processes else ''}"
    )
    print(header)
    node = results["node"]
    for name, plain in names.items():
        result = results[name]
        for key in [*args.wallets, *(["idle_calls"] if args.idle else [])]:
            rows = result[key]
            cpu = [row["cpu_us"] for row in rows]
            ref = [row["cpu_us"] for row in node[key]]
            ratio = (
                f"{statistics.median(cpu) / statistics.median(ref):.1f} "
                f"[{min(cpu) / max(ref):.1f}-{max(cpu) / min(ref):.1f}]"
            )
            difference = "-" if plain is None else versus(cpu, [row["cpu_us"] for row in results[plain][key]])
            if name not in ("node", "python") and plain is None:
                difference = "(baseline)" if args.baseline else "(reference)"
            label = "10+idle" if key == "idle_calls" else key
            print(
                f"{name:<36}{label:>7}  {spread(cpu):<20}{difference:<15}{ratio:<20}"
                f"{spread([r['rate'] for r in rows]):<20}"
                f"{spread([r['p50'] for r in rows], 2):<25}{spread([r['p99'] for r in rows], 2):<27}"
                f"{sum(r.get('failed', 0) for r in rows):<8}"
                + (spread([r["redis"] for r in rows], 1) if rows[0].get("redis") is not None else "")
            )


def print_sizing(results, names, args):
    """For each two-process target, the CPU per call of each part and the calls a second one core gives it."""
    rows = [
        (name, key, rows)
        for name in names
        for key, rows in results[name].items()
        if isinstance(key, int) and rows and rows[0].get("parts_us")
    ]
    if not rows:
        return
    print("sizing: CPU us per call of each part (median), and calls a second one busy core gives that part")
    for name, key, found in rows:
        parts = {
            part: statistics.median(row["parts_us"][part] for row in found) for part in found[0]["parts_us"]
        }
        listed = "   ".join(f"{part} {us:.0f} us ({1e6 / us:,.0f}/s)" for part, us in parts.items() if us > 0)
        print(f"  {name:<36}W = {key:<5}{listed}")


def print_collector(results, names, args):
    """For each Python target in one process: the garbage collector's share of its CPU per call."""
    rows = [
        (name, key, found)
        for name in names
        for key, found in results[name].items()
        if isinstance(key, int) and found and found[0].get("gc") and not found[0].get("parts_us")
    ]
    if not rows:
        return
    print(
        "collector: us per call the cyclic garbage collector ran in the server (median), its passes by "
        "generation over all runs, the longest pass of each, and the objects it tracks after the last run"
    )
    for name, key, found in rows:
        spent = statistics.median(row["gc"]["seconds"] / row["calls_made"] * 1e6 for row in found)
        passes = [sum(row["gc"]["passes"][g] for row in found) for g in range(3)]
        longest = [max(row["gc"]["longest"][g] for row in found) * 1e3 for g in range(3)]
        print(
            f"  {name:<36}W = {key:<5}{spent:5.1f} us   passes {passes[0]}/{passes[1]}/{passes[2]}   "
            f"longest {longest[0]:.1f}/{longest[1]:.1f}/{longest[2]:.1f} ms   "
            f"tracked {found[-1]['gc']['tracked']:,}"
        )


def print_failures(results, names, args):
    """Say how the calls that failed ended (byoa.exceptions' class), where any did."""
    for name in names:
        for key in [*args.wallets, *(["idle_calls"] if args.idle else [])]:
            kinds = {}
            for row in results[name][key]:
                for kind, count in row.get("kinds", {}).items():
                    kinds[kind] = kinds.get(kind, 0) + count
            if kinds:
                listed = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
                print(f"failed calls on {name} at W = {key}: {listed}")
            found = [row["wallets"] for row in results[name][key]]
            if any(connected != expected for connected, expected in found):
                print(
                    f"wallets with a channel on {name} at W = {key}, run by run: "
                    + ", ".join(f"{connected} of {expected}" for connected, expected in found)
                    + " (a call that ends WalletProcessGone detaches its pairing: byoa.calls)"
                )


def print_bound(results, names, args):
    """Say whether each one-process target's CPU per call is within BOUND x the anchor's, and
    within FLOOR_BOUND x the Python floor's at every W (issue 59).

    And at W = 100 within W100_BOUND x (issue 52), beside the Python floor's own ratio: the part of
    the gap that no Python code on that server can close.
    """
    at_w = " / ".join(map(str, args.wallets))

    def ratio(name, w, reference="node"):
        return _median(results, name, w) / _median(results, reference, w)

    print(
        "the Python floor (benchmarks/asgi_anchor.py on uvicorn-sansio): "
        + " / ".join(f"{ratio('python', w):.2f}" for w in args.wallets)
        + f" x node at W = {at_w}"
    )
    for name in _one_process(names):
        if 100 in args.wallets:
            at_100 = ratio(name, 100)
            verdict = "within" if at_100 <= W100_BOUND else "NOT within"
            print(
                f"the call path on {name} at W = 100: {at_100:.2f} x node, {verdict} {W100_BOUND}x; "
                f"{at_100 / ratio('python', 100):.2f} x the Python floor"
            )
    for name in _one_process(names):
        ratios = [ratio(name, w) for w in args.wallets]
        verdict = "within" if max(ratios) <= BOUND else "NOT within"
        print(
            f"the call path on {name}: {' / '.join(f'{r:.2f}' for r in ratios)} x node at W = {at_w}: "
            f"{verdict} {BOUND}x"
        )
    for name in _one_process(names):
        ratios = [ratio(name, w, "python") for w in args.wallets]
        verdict = "within" if max(ratios) <= FLOOR_BOUND else "NOT within"
        print(
            f"the call path on {name}: {' / '.join(f'{r:.2f}' for r in ratios)} x the Python floor at "
            f"W = {at_w}: {verdict} {FLOOR_BOUND:g}x"
        )


def print_across(results, names, args):
    """Say whether each two-process target spends at most ACROSS_BOUND_US of CPU per call, none failed."""
    for name in names:
        if " 2p" not in name:
            continue
        medians = [_median(results, name, w) for w in args.wallets]
        failed = sum(row.get("failed", 0) for w in args.wallets for row in results[name][w])
        verdict = "within" if max(medians) <= ACROSS_BOUND_US and not failed else "NOT within"
        print(
            f"across processes on {name}: {' / '.join(f'{us:.0f}' for us in medians)} us per call at "
            f"W = {' / '.join(map(str, args.wallets))}, {failed} failed: {verdict} "
            f"{ACROSS_BOUND_US:,} us with none failed"
        )


def print_idle(results, args):
    """Print memory per idle wallet, and CPU per call at W = 10 with the idle wallets connected."""
    print(f"memory per idle wallet ({args.idle} connected, RSS of the server's processes):")
    for name, result in results.items():
        flat = (
            statistics.median(c["cpu_us"] for c in result["idle_calls"])
            / statistics.median(c["cpu_us"] for c in result[10])
            if 10 in result
            else float("nan")
        )
        print(
            f"  {name:<36}{result['idle_kib']:>7.1f} KiB   CPU/call at W=10 with them / without: {flat:.2f}"
        )


def machine():
    """Return the CPU's model and count, and the versions the figures belong to."""
    import platform
    from importlib import metadata

    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    names = ("django", "channels", "channels-redis", "redis", "uvicorn", "daphne")
    versions = []
    for name in names:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return f"{os.cpu_count()} x {model}, Python {platform.python_version()}, {', '.join(versions)}"
