"""What benchmarks/soak.py prints of a soak: each call by where its wallet was, what crossed
processes, what was lost, misrouted or duplicated, the processes' memory, and the verdict."""

import collections
import os
import statistics


def report(args, result, database, driver_rss_kib):
    """Print the soak's figures and its verdict; return the exit status (1 when anything failed)."""
    tally, ledger = result["tally"], result["ledger"]
    duplicated = sum(1 for count in ledger.ran.values() if count > 1)
    duplicated += sum(1 for count in tally.received.values() if count > 1)
    load = os.getloadavg()
    routing = (
        "through nginx (hash of the route id, consistent)"
        if args.routing == "nginx"
        else "direct (each call to a process at random)"
    )
    print(
        f"BYOA soak on loopback: {args.wallets} wallets x {args.calls} calls, {args.processes} {args.server} "
        f"processes {routing}, Redis channel layer, {database}; {args.concurrency} calls in flight at most, "
        f"call timeout {args.timeout:g} s, seed {args.seed}"
    )
    print(f"CPUs: {result['pinning']}")
    print(
        f"{os.cpu_count()} CPUs, shared; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"wallets connected in {result['connected']:.1f} s; calls took {result['elapsed']:.1f} s "
        f"({sum(r['made'] for r in tally.rows.values()) / result['elapsed']:.0f} calls/s)"
    )
    header = (
        f"{'wallet was in':<16}{'made':>8}{'answered':>10}{'None':>7}{'at drop':>9}{'lost':>6}{'misrouted':>11}"
        f"{'errors':>8}{'p50 ms':>9}{'p99 ms':>9}"
    )
    print(header)
    total = collections.Counter()
    for where, label in (("same", "the caller's"), ("other", "another process"), ("away", "none (away)")):
        row = tally.rows[where]
        if where == "away" and not row["made"]:
            continue
        total.update(row)
        latencies = sorted(tally.latency[where])
        p50 = f"{statistics.median(latencies) * 1e3:.1f}" if latencies else "-"
        p99 = (
            f"{latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1e3:.1f}"
            if latencies
            else "-"
        )
        print(
            f"{label:<16}{row['made']:>8}{row['answered']:>10}{row['none']:>7}{row['none_at_drop']:>9}"
            f"{row['lost']:>6}{row['misrouted']:>11}{row['error']:>8}{p50:>9}{p99:>9}"
        )
    print(
        f"{'all':<16}{total['made']:>8}{total['answered']:>10}{total['none']:>7}{total['none_at_drop']:>9}"
        f"{total['lost']:>6}{total['misrouted']:>11}{total['error']:>8}"
    )
    print(
        f"None outside a drop: {total['none_at_once']} at once, {total['none_waited']} at the call's timeout"
    )
    found = tally.rows["same"]["made"] + tally.rows["other"]["made"]
    crossed = tally.rows["other"]["made"] / found if found else 0.0
    print(
        f"calls that crossed processes (the wallet's connection in another process than the call's, "
        f"as that process said): {tally.rows['other']['made']} of {found}, {crossed:.1%}"
    )
    taken = ", ".join(f"{count}" for _pid, count in sorted(tally.by_process.items(), key=str))
    print(f"calls taken by each process (the spread of the visitors): {taken}")
    print(f"duplicated (run twice by the wallets, or received by two callers): {duplicated}")
    wallets = result["wallets"]
    print(
        f"wallets that dropped mid-call: {wallets['dropped']} of {wallets['dropping']} chosen; "
        f"connections coming back with their pairing: {wallets['reconnections']}"
    )
    print(
        f"resident memory of the server processes (start: connected and warm; end: after the calls), "
        f"bound +{args.rss_growth_mib} MiB each:"
    )
    grew = False
    for index, (start, end) in enumerate(zip(result["rss_start"], result["rss_end"], strict=True)):
        growth = (end - start) / 1024
        grew |= growth > args.rss_growth_mib
        print(f"  process {index}: {start / 1024:.1f} MiB -> {end / 1024:.1f} MiB ({growth:+.1f} MiB)")
    print(
        f"this process (the {args.wallets} wallets and the callers): {driver_rss_kib / 1024:.0f} MiB at the end"
    )
    for line in tally.errors[:20]:
        print(f"  ! {line}")
    failed = []
    if total["lost"] or total["misrouted"] or duplicated or total["error"]:
        failed.append("lost, misrouted, duplicated or failed calls")
    if grew:
        failed.append(f"a process grew by more than {args.rss_growth_mib} MiB")
    if result["timed_out"] or total["made"] < args.wallets * args.calls:
        failed.append(f"the time limit ({args.time_limit:g} s) ended the run before every call was made")
    print(
        "FAILED: " + "; ".join(failed)
        if failed
        else "OK: nothing lost, misrouted or duplicated; memory within bound"
    )
    return 1 if failed else 0
