"""A second, independent MCP client: the MCP Inspector's CLI (Node.js)."""

import json
import shutil
import subprocess

import pytest

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        shutil.which("npx") is None, reason="npx (Node.js) is not installed, so the MCP Inspector cannot run"
    ),
]

# Pinned: the CLI's output format is what the assertions read.
INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"


def inspector(server, *arguments):
    completed = subprocess.run(
        ["npx", "--yes", INSPECTOR, "--cli", f"{server.url}/api/mcp", *arguments],
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 0, completed.stderr + completed.stdout
    return json.loads(completed.stdout)


def test_inspector_cli_lists_the_shop_tools(daphne_server):
    listed = inspector(daphne_server, "--method", "tools/list")
    assert {tool["name"] for tool in listed["tools"]} >= {"search_books", "get_book", "list_moods"}


def test_inspector_cli_calls_search_books(daphne_server):
    result = inspector(
        daphne_server,
        "--method",
        "tools/call",
        "--tool-name",
        "search_books",
        "--tool-arg",
        "mood=calm",
        "--tool-arg",
        "limit=2",
    )
    assert result.get("isError") is not True
    assert len(result["structuredContent"]["books"]) == 2
