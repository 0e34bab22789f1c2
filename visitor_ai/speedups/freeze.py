"""
``gc_freeze``: start-up's objects out of the cyclic garbage collector's way (``visitor_ai.speedups``).

Everything made while a process starts (settings, apps, models, every view
module once the URLconf is imported, the manifests) lives as long as the
process. ``gc.freeze()`` moves it to a generation the collector never
walks, so each later collection of the oldest generation walks only what
requests left. The cost: a cycle frozen in is never collected, even once it
is dropped, so it belongs where the application is built once per process (a
server's worker), not where tests build it again and again.
"""

import gc

__all__ = ["freeze_start_up"]


def freeze_start_up() -> None:
    """Import the URLconf, collect start-up's garbage, and freeze the rest for the process's life."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  # imports every URL module and so every view module
    # Garbage first: what is frozen is never collected, and start-up leaves cycles behind (imports).
    gc.collect()
    gc.freeze()
