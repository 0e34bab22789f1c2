"""
Lighthouse's mobile run on every demo page as production serves it, all four categories.

    .venv/bin/python benchmarks/lighthouse.py [--runs 3]

The project runs as `DJANGO_DEBUG=0 make run` runs it (uvicorn, DEBUG off, static files
from collectstatic), and Lighthouse (frontend/'s devDependency) opens each page --runs
times on Debian's Chromium, with its simulated phone, network and CPU. Printed per page:
each category's score (the median of the runs), then the performance run's metrics
(First and Largest Contentful Paint, Total Blocking Time, Cumulative Layout Shift).
The performance score moves with this machine's load, so it is printed here and never
asserted; tests/home/test_lighthouse.py holds the other three categories to 95.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.page_weight import start_server  # noqa: E402  (after the path: run as a script)
from tests.lighthouse import lighthouse, scores  # noqa: E402

PAGES = (
    "/",
    "/bookshop/",
    "/bookshop/books/a-christmas-carol/",
    "/bookshop/basket/",
    "/geography/",
    "/twentyq/",
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=3, help="Lighthouse runs of each page (the median is printed)"
    )
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as workdir:
        server = start_server("uvicorn", workdir)
        try:
            for path in PAGES:
                reports = [lighthouse(server.url + path, CATEGORIES) for _ in range(args.runs)]
                rows.append((path, reports))
        finally:
            server.stop()

    print(
        f"Lighthouse (mobile, simulated throttling) on each page, DEBUG off under uvicorn; median of {args.runs}."
    )
    print()
    header = f"{'page':<36} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5}   " + "  ".join(
        f"{name:>8}" for name in ("FCP", "LCP", "TBT", "CLS")
    )
    print(header)
    print("-" * len(header))
    for path, reports in rows:
        median = {key: statistics.median(scores(report)[key] for report in reports) for key in CATEGORIES}
        middle = sorted(reports, key=lambda report: scores(report)["performance"])[len(reports) // 2]
        shown = [middle["audits"][metric]["displayValue"] for metric in METRICS]
        print(
            f"{path:<36} "
            + " ".join(f"{round(median[key] * 100):>5}" for key in CATEGORIES)
            + "   "
            + "  ".join(f"{value:>8}" for value in shown)
        )


if __name__ == "__main__":
    main()
