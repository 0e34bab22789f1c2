"""How the benchmarks print the figures of several runs: the median and its range, and a median's
difference from a reference's."""

import statistics


def spread(values, digits=0):
    """Return the median and [min-max] of the runs' values: "74 [71-80]"."""
    values = sorted(values)
    return f"{statistics.median(values):.{digits}f} [{values[0]:.{digits}f}-{values[-1]:.{digits}f}]"


def versus(values, reference):
    """Return the median's difference from the reference's median: "-61 (-9%)"."""
    if not values or not reference:
        return "-"
    ours, theirs = statistics.median(values), statistics.median(reference)
    return f"{ours - theirs:+.0f} ({(ours - theirs) / theirs:+.0%})"
