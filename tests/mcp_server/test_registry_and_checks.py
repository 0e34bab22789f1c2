"""Tool registration rules, the tools' system checks, and the MCP_SERVER settings' checks."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from mcp_server import tool
from mcp_server.apps import registrations
from mcp_server.checks import check_mcp_server_settings
from mcp_server.registry import marked_in, problems, tools_in
from sites.bookshop import tools as bookshop_tools

ROOT = Path(__file__).resolve().parents[2]


def tools_module(*functions, name="shop.tools"):
    """Return a module holding these functions, as an app's tools.py would."""
    module = ModuleType(name)
    for fn in functions:
        setattr(module, fn.__name__, fn)
    return module


def problem_ids(*functions):
    return [problem.id for problem in problems(marked_in([tools_module(*functions)]))]


def test_a_sync_tool_stays_importable_and_is_a_check_error():
    @tool()
    def slow_tool():
        """Nope."""

    assert slow_tool() is None  # marked, not refused at import: the check says why at start-up
    (problem,) = problems(marked_in([tools_module(slow_tool)]))
    assert problem.id == "mcp_server.E005" and "async def" in problem.hint


def test_a_tool_without_a_docstring_is_a_check_error():
    @tool()
    async def undocumented() -> str:
        return ""

    assert problem_ids(undocumented) == ["mcp_server.E006"]


class Shelf:
    """A class pydantic has no JSON Schema for."""


def test_an_annotation_the_schema_cannot_express_is_a_check_error_with_the_sdks_reason():
    @tool()
    async def shelve(shelf: Shelf) -> str:
        """Put a book on a shelf."""
        return ""

    (problem,) = problems(marked_in([tools_module(shelve)]))
    assert problem.id == "mcp_server.E007" and "JsonSchema" in problem.message and "TypedDict" in problem.hint


def test_two_tools_with_one_name_are_a_check_error_naming_both():
    @tool()
    async def search_books():
        """A second search_books."""

    found = problems(marked_in([bookshop_tools, tools_module(search_books, name="other.tools")]))
    assert [problem.id for problem in found] == ["mcp_server.E008"]
    assert found[0].where.endswith("<locals>.search_books")  # the second one: the check's object
    assert "sites.bookshop.tools.search_books" in found[0].message and "name=" in found[0].hint


def test_the_server_refuses_tools_with_a_mistake_naming_the_check():
    @tool()
    def slow_tool():
        """Nope."""

    with pytest.raises(ImproperlyConfigured, match=r"mcp_server\.E005.*manage\.py check"):
        tools_in([tools_module(slow_tool)])


def test_the_installed_apps_tools_have_no_mistakes():
    assert problems(registrations()) == []


SYNC_TOOL_APP = {
    "brokentools/__init__.py": "",
    "brokentools/apps.py": """
        from django.apps import AppConfig

        class BrokenToolsConfig(AppConfig):
            name = "brokentools"
    """,
    "brokentools/tools.py": """
        from mcp_server import tool

        @tool()
        def count_books() -> int:
            \"\"\"Count the books.\"\"\"
            return 0
    """,
    "broken_settings.py": """
        from sites.config.settings import *  # noqa: F403

        INSTALLED_APPS = [*INSTALLED_APPS, "brokentools"]  # noqa: F405
    """,
}


def test_manage_py_check_on_a_site_with_a_sync_tool_fails_with_its_id(tmp_path):
    for name, text in SYNC_TOOL_APP.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "broken_settings",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "VISITOR_AI_VAR_DIR": str(tmp_path / "var"),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "brokentools.tools.count_books: (mcp_server.E005) This MCP tool is a plain function" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("mcp_server.E005") == 1


def test_installed_apps_tools_are_discovered_in_the_order_they_are_defined():
    names = [r.name for r in registrations()]
    assert names[:5] == ["search_books", "get_book", "list_moods", "add_to_basket", "view_basket"]


def test_a_marked_function_outside_the_installed_apps_tools_is_not_served():
    @tool()
    async def stray_tool():
        """Marked, but in no installed app's tools.py."""

    assert "stray_tool" not in [r.name for r in registrations()]


def test_a_tool_imported_into_a_second_tools_module_is_served_once():
    again = ModuleType("again.tools")
    again.search_books = bookshop_tools.search_books
    assert [r.name for r in tools_in([bookshop_tools, again])].count("search_books") == 1


def test_the_declared_hints_become_mcp_annotations_each_sent_explicitly():
    @tool(read_only=True, open_world=True)
    async def web_search():
        """Search the web."""

    module = ModuleType("web.tools")
    module.web_search = web_search
    (registration,) = tools_in([module])
    assert registration.annotations.model_dump(by_alias=True, exclude_none=True) == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "openWorldHint": True,
    }


def error_ids(settings_value, settings):
    settings.MCP_SERVER = settings_value
    return [message.id for message in check_mcp_server_settings(None) if message.level >= checks.ERROR]


def test_default_settings_pass_the_checks(settings):
    assert error_ids({}, settings) == []


@pytest.mark.parametrize(
    "value, expected",
    [
        ({"PAHT": "/api/mcp"}, "mcp_server.E001"),
        ({"PATH": "api/mcp"}, "mcp_server.E002"),
        ({"PATH": "/api/mcp/"}, "mcp_server.E002"),
        ({"MAX_BODY_BYTES": 0}, "mcp_server.E003"),
        ({"ALLOWED_ORIGINS": ["*"]}, "mcp_server.E004"),
        ({"ALLOWED_ORIGINS": ["shop.example"]}, "mcp_server.E004"),
    ],
)
def test_bad_settings_are_reported_by_id(settings, value, expected):
    assert error_ids(value, settings) == [expected]


def test_cookie_sessions_are_warned_about_because_tools_cannot_save_them(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    assert [m.id for m in check_mcp_server_settings(None)] == ["mcp_server.W001"]


PROBE = (
    "import sys, django; django.setup(); loaded = 'mcp' in sys.modules; "
    "from django.apps import apps; tools = [t.name for t in apps.get_app_config('mcp_server').tools]; "
    "print(loaded, 'mcp' in sys.modules, 'search_books' in tools)"
)


def probe(code, var_dir):
    """Run `code` in a new Python process with the demo project's settings; return the words it printed."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sites.config.settings",
        "VISITOR_AI_VAR_DIR": str(var_dir),
    }
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_django_setup_leaves_the_mcp_sdk_unloaded_until_the_tools_are_asked_for(tmp_path):
    assert probe(PROBE, tmp_path) == ["False", "True", "True"]


# The ASGI application as a server process imports it, then the lifespan start-up uvicorn sends.
ASGI_PROBE = """
import asyncio, sys
import sites.config.asgi
imported = "mcp" in sys.modules
async def start():
    answered, messages = asyncio.Queue(), [{"type": "lifespan.startup"}]
    async def receive():
        return messages.pop() if messages else await asyncio.Event().wait()  # then wait, as a server does
    task = asyncio.create_task(sites.config.asgi.application({"type": "lifespan"}, receive, answered.put))
    try:
        return (await asyncio.wait_for(answered.get(), 30))["type"]
    finally:
        task.cancel()
started = asyncio.run(start())
print(imported, started == "lifespan.startup.complete", "mcp" in sys.modules)
"""


def test_the_asgi_application_imports_the_mcp_sdk_when_its_lifespan_builds_the_server(tmp_path):
    # A daphne process (no lifespan) that never serves /api/mcp then never pays the SDK's import.
    assert probe(ASGI_PROBE, tmp_path) == ["False", "True", "True"]
