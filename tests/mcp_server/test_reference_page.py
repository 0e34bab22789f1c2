"""The mcp_server reference page's examples run: its tools.py in an installed app, and its in-process test."""

import re
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.test import modify_settings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "mcp_server.md"


def page_block(marker):
    """Return the Python block of docs/reference/mcp_server.md after the marker with ``marker``."""
    after = PAGE.read_text(encoding="utf-8").split(f"tests/mcp_server/test_reference_page.py {marker}", 1)[1]
    return re.search(r"```python\n(.*?)```", after, flags=re.DOTALL)[1]


@pytest.fixture
def notes_app(tmp_path, monkeypatch):
    """Install an app named notes whose tools.py is the page's."""
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "__init__.py").write_text("")
    (tmp_path / "notes" / "tools.py").write_text(page_block("installs this tools.py"))
    monkeypatch.syspath_prepend(str(tmp_path))
    with modify_settings(INSTALLED_APPS={"append": "notes"}):
        yield apps.get_app_config("mcp_server")
    sys.modules.pop("notes.tools", None)
    sys.modules.pop("notes", None)


async def test_the_pages_tool_is_listed_with_its_length_limit_and_its_test_passes(notes_app):
    from mcp import Client

    from mcp_server import build_server

    async with Client(build_server()) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert listed["keep_note"].input_schema["properties"]["note"]["maxLength"] == 200
    assert "ctx" not in listed["keep_note"].input_schema["properties"]
    names = {}
    exec(page_block("runs this test"), names)
    await names["test_a_note_needs_a_browser_session"]()


async def test_the_pages_statement_holds_no_resources_and_no_prompts():
    from mcp import Client

    from mcp_server import build_server

    async with Client(build_server()) as client:
        assert (await client.list_resources()).resources == []
        assert (await client.list_prompts()).prompts == []
