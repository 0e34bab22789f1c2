"""
frontend/ as the npm package `visitor-ai`: packed with `npm pack`, installed into a new Node
project outside the repository whose only other dependency is @playwright/test, where a Playwright
Test spec drives the bookshop with the AI Wallet stand-in and Twenty Questions with the BYOA
stand-in (visitor-ai/test) against a live server, and esbuild bundles the AI Wallet client from
the package. The types the package ships are what tsc writes from the JSDoc.
"""

import filecmp
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
PROJECT = Path(__file__).resolve().parent / "npm_project"
PACKAGE = json.loads((FRONTEND / "package.json").read_text())


def run(command, cwd, env=None, timeout=600):
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run(
        command, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_package_is_publishable_with_its_exports_and_files():
    assert "private" not in PACKAGE and PACKAGE["name"] == "visitor-ai"
    assert {"./aiconnect", "./byoa", "./ways", "./webmcp", "./ui", "./test"} <= set(PACKAGE["exports"])
    for target in PACKAGE["exports"].values():
        for path in target.values() if isinstance(target, dict) else [target]:
            if "*" not in path:
                assert (FRONTEND / path).is_file(), path


def test_checked_in_types_are_what_tsc_writes_from_the_jsdoc(tmp_path):
    run(["npx", "tsc", "-p", "tsconfig.build.json", "--outDir", str(tmp_path)], FRONTEND)
    compared = filecmp.dircmp(FRONTEND / "types", tmp_path)
    stale = []

    def collect(comparison, prefix=""):
        stale.extend(prefix + name for name in comparison.left_only + comparison.right_only)
        stale.extend(prefix + name for name in comparison.diff_files)
        for name, sub in comparison.subdirs.items():
            collect(sub, f"{prefix}{name}/")

    collect(compared)
    assert stale == [], f"frontend/types is stale (run `npm run build:types`): {stale}"


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.live
def test_packed_tarball_serves_a_new_node_projects_playwright_tests_and_bundle(daphne_server, tmp_path):
    tarball = (
        tmp_path
        / run(["npm", "pack", "--pack-destination", str(tmp_path)], FRONTEND).strip().splitlines()[-1]
    )
    project = tmp_path / "site-e2e"
    shutil.copytree(PROJECT, project)
    (project / "package.json").write_text(json.dumps({"name": "site-e2e", "private": True, "type": "module"}))
    playwright = PACKAGE["devDependencies"]["@playwright/test"]
    env = {"PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    run(
        [
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--prefer-offline",
            str(tarball),
            f"@playwright/test@{playwright}",
        ],
        project,
        env,
    )
    installed = json.loads((project / "package.json").read_text())["dependencies"]
    assert sorted(installed) == ["@playwright/test", "visitor-ai"]

    out = run(
        ["npx", "playwright", "test"],
        project,
        {**env, "SITE_URL": daphne_server.url, "CHROMIUM": "/usr/bin/chromium"},
    )
    assert "2 passed" in out

    esbuild = FRONTEND / "node_modules" / ".bin" / "esbuild"
    run([str(esbuild), "bundle-entry.js", "--bundle", "--format=esm", "--outfile=bundle.js"], project)
    assert "node_modules/visitor-ai/aiconnect/client.js" in (project / "bundle.js").read_text()
    assert run(["node", "bundle.js"], project).strip() == "function WalletRequestError"
