"""One benchmark run of calls, the same loop inside every Python server byoa_calls.py measures."""

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence


async def run_calls(
    wallets: Sequence[object],
    per_wallet: int,
    inflight: int,
    call: Callable[[object], Awaitable[tuple[object | None, str | None]]],
) -> dict:
    """Make ``per_wallet`` calls to each wallet, ``inflight`` at a time; return the run's figures.

    ``call(wallet)`` makes one call and returns (its output or None, why it failed or None).
    """
    latencies: list[float] = []
    kinds: dict[str, int] = {}  # the failures by why, as call() names them
    failures = 0

    async def calls_to(wallet: object) -> None:
        left = per_wallet

        async def worker() -> None:
            nonlocal left, failures
            while left > 0:
                left -= 1
                started = time.perf_counter()
                output, why = await call(wallet)
                if output is None:
                    failures += 1
                    if why:
                        kinds[why] = kinds.get(why, 0) + 1
                else:
                    latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(worker() for _ in range(min(inflight, per_wallet))))

    started = time.perf_counter()
    await asyncio.gather(*(calls_to(wallet) for wallet in wallets))
    elapsed = time.perf_counter() - started
    latencies.sort()

    def at(q: float) -> float | None:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else None

    return {
        "wallets": len(wallets),
        "calls": len(latencies),
        "failures": failures,
        "kinds": kinds,
        "elapsed": elapsed,
        "p50": at(0.5),
        "p99": at(0.99),
    }
