"""
Lighthouse (the npm package, frontend/'s devDependency) on Debian's Chromium, for the suite's
audits (tests/home/test_lighthouse.py) and the performance benchmark (benchmarks/lighthouse.py).
Its mobile run, as `npx lighthouse <url>` makes it: a phone's screen and a throttled network
and CPU, simulated.
"""

import json
import os
import subprocess
from pathlib import Path

from testwallet.chromium import CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "frontend" / "node_modules" / "lighthouse" / "cli" / "index.js"
#: Debian's full Chromium: Lighthouse drives it over its debugging protocol, headless.
CHROME_PATH = os.environ.get("CHROME_PATH", "/usr/bin/chromium")


class LighthouseMissing(RuntimeError):
    """Raised when frontend/node_modules has no lighthouse: `make frontend-deps` installs it."""


def lighthouse(url: str, categories: tuple[str, ...], *, timeout: float = 180) -> dict:
    """Return Lighthouse's JSON report on ``url`` for ``categories`` (its ids, e.g. "seo")."""
    if not CLI.is_file():
        raise LighthouseMissing(f"{CLI} is missing: run `make frontend-deps` (lighthouse is a devDependency)")
    flags = " ".join([*CHROMIUM_ARGS, "--headless=new"])
    done = subprocess.run(
        [
            "node",
            str(CLI),
            url,
            f"--only-categories={','.join(categories)}",
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            f"--chrome-flags={flags}",
        ],
        env={**os.environ, "CHROME_PATH": CHROME_PATH},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url} ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def scores(report: dict) -> dict[str, float]:
    """Return {category id: score from 0 to 1} of a report."""
    return {key: category["score"] for key, category in report["categories"].items()}


def shortfalls(report: dict, category: str) -> list[str]:
    """Return 'audit id: title (score)' for each audit of ``category`` that counts and is not full."""
    found = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
            found.append(f"{ref['id']}: {audit['title']} ({audit['score']})")
    return found
