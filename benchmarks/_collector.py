"""The cyclic garbage collector's share of a run, measured inside a Python server (gc.callbacks)."""

import gc
import time


class Collector:
    """While entered: the seconds the collector ran and its passes by generation, in this process."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.passes = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]
        self._started = 0.0

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        spent = time.perf_counter() - self._started
        generation = info["generation"]
        self.seconds += spent
        self.passes[generation] += 1
        self.longest[generation] = max(self.longest[generation], spent)

    def __enter__(self) -> "Collector":
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._callback)

    def summary(self) -> dict:
        """Return what the run cost the collector, and how many objects it tracks now."""
        return {
            "seconds": self.seconds,
            "passes": self.passes,
            "longest": self.longest,
            "tracked": len(gc.get_objects()),
        }
