"""
The docs site builds with warnings as errors and says what the code declares: every public
name of the four packages, every setting and system check; every code block in it is a file a
test runs or a block a test reads; the README stays a short front door.

Every reference to a document resolves inside the repository: the protocol texts
the code cites (``specs/<name>.md, "Section"``, ``DESIGN.md, "Section"`` and
``MCP 2025-06-18, "Section"`` name a heading of docs/specs/<name>.md,
docs/DESIGN.md and docs/specs/mcp-streamable-http.md), every docs/ path named,
every relative Markdown link in a *.md file, and every JSDoc ``@see`` path.
"""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PROTOCOLS = ("aiconnect-core", "wallet-provider", "byoa-sites", "mcp-streamable-http")
MCP = "MCP 2025-06-18"
TEXT_SUFFIXES = {
    ".py",
    ".js",
    ".mjs",
    ".md",
    ".toml",
    ".html",
    ".css",
    ".txt",
    ".cfg",
    ".ini",
    ".sh",
    ".json",
}
SKIPPED = ("frontend/vendor/", "frontend/node_modules/", "package-lock.json", "tests/test_docs.py")

# A line break inside a comment, with the next line's comment marker: a citation may wrap there.
COMMENT_BREAK = re.compile(r"\s*\n\s*(?:\*(?!/)|//+|#+)?\s*")
# A document name, with the path written before it (if any).
CITED = re.compile(r"(?<![\w.-])((?:[\w.-]+/)*)((?:" + "|".join(PROTOCOLS) + r")\.md|DESIGN\.md|" + MCP + ")")
# A path into docs/ written out in full.
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w/.-]+\.md")
# The quoted section titles right after a citation: "A", "B" / "A" and "B" / "A" to "B".
TITLES = re.compile(r'\s*\)?\s*[,(]?\s*("[^"\n]{1,80}"(?:\s*(?:,|and|to)\s*"[^"\n]{1,80}")*)')
MARKDOWN_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SEE = re.compile(r"@see\s+(?:\{@link\s+)?([^\s}]+)")


def repository_files():
    """Return the repository's text files (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    files = []
    for name in listed:
        path = ROOT / name
        if name.startswith(SKIPPED) or name.endswith(SKIPPED) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES or path.name == "Makefile":
            files.append(path)
    return files


def headings(document):
    """Return the heading texts of a Markdown file, lower-cased and without backticks."""
    found = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", document.read_text(encoding="utf-8"), re.MULTILINE)
    return [heading.replace("`", "").strip().lower() for heading in found]


def slug(heading):
    """Return the anchor GitHub gives a heading (lower-cased heading text)."""
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def names_a_heading(title, document):
    """Whether the quoted title is a heading of the document, or its part before a colon ("With the extension")."""
    wanted = title.replace("`", "").strip().lower()
    return any(h == wanted or h.startswith(wanted + ":") for h in headings(document))


def cited_document(prefix, name, where):
    """Return the file a citation names: a written path as it resolves, else the docs/ file of that name."""
    if name == MCP:
        return DOCS / "specs" / "mcp-streamable-http.md"
    if prefix and prefix != "specs/" and prefix != "docs/specs/" and prefix != "docs/":
        return (where.parent / prefix / name).resolve()
    return DOCS / name if name == "DESIGN.md" else DOCS / "specs" / name


def citation_problems(text, where):
    """Return what is wrong with the document citations in a file's text."""
    problems = []
    prose = COMMENT_BREAK.sub(" ", text)
    for match in CITED.finditer(prose):
        prefix, name = match.groups()
        document = cited_document(prefix, name, where)
        if not document.is_file() or ROOT not in document.parents:
            problems.append(f"{where.relative_to(ROOT)}: {prefix}{name} is not a file in the repository")
            continue
        quoted = TITLES.match(prose, match.end())
        for title in re.findall(r'"([^"]+)"', quoted.group(1) if quoted else ""):
            if not names_a_heading(title, document):
                problems.append(f'{where.relative_to(ROOT)}: {prefix}{name} has no section "{title}"')
    for path in DOCS_PATH.findall(prose):
        if not (ROOT / path).is_file() and not (where.parent / path).is_file():
            problems.append(f"{where.relative_to(ROOT)}: {path} is not a file in the repository")
    return problems


def link_problems(target, where):
    """Return what is wrong with one relative link (a path, maybe with an #anchor) from a file."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return []  # a URL, or a path on a running site: not a file of this repository
    path, _, anchor = target.partition("#")
    document = (where.parent / path).resolve() if path else where
    if not document.exists() or ROOT not in [document, *document.parents]:
        return [f"{where.relative_to(ROOT)}: {target} does not resolve"]
    if anchor and document.suffix == ".md" and anchor not in {slug(h) for h in headings(document)}:
        return [f"{where.relative_to(ROOT)}: {target} names no heading of {document.relative_to(ROOT)}"]
    return []


def markdown_link_problems(text, where):
    """Return what is wrong with the relative links of a Markdown file."""
    return [problem for target in MARKDOWN_LINK.findall(text) for problem in link_problems(target, where)]


def see_problems(text, where):
    """Return what is wrong with the JSDoc @see paths of a script (URLs and symbol names are left alone)."""
    problems = []
    for target in SEE.findall(text):
        if "/" not in target.partition("#")[0] and not target.endswith((".md", ".js", ".mjs")):
            continue  # a symbol such as `runConversation`
        if link_problems(target, where) and link_problems(target, ROOT / "_"):
            problems.append(f"{where.relative_to(ROOT)}: @see {target} does not resolve")
    return problems


FILES = repository_files()


def test_each_protocol_text_the_code_cites_is_in_docs():
    for name in PROTOCOLS:
        assert (DOCS / "specs" / f"{name}.md").is_file()
    assert (DOCS / "DESIGN.md").is_file()


def test_every_citation_of_a_protocol_text_names_a_file_and_section_that_exist():
    problems = [p for path in FILES for p in citation_problems(path.read_text(encoding="utf-8"), path)]
    assert problems == []


def test_every_relative_markdown_link_resolves():
    markdown = [path for path in FILES if path.suffix == ".md"]
    assert ROOT / "frontend" / "README.md" in markdown
    problems = [
        p for path in markdown for p in markdown_link_problems(path.read_text(encoding="utf-8"), path)
    ]
    assert problems == []


def test_every_markdown_path_the_readme_names_is_a_file_from_the_root():
    # Read at the root, "specs/byoa-sites.md" names nothing: the texts are in docs/specs/.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = set(re.findall(r"(?<![\w/.#-])((?:[\w.-]+/)+[\w.-]+\.md)(?![\w/-])", readme))
    assert "docs/tutorial.md" in written
    assert sorted(path for path in written if not (ROOT / path).is_file()) == []


def test_every_jsdoc_see_path_resolves():
    scripts = [path for path in FILES if path.suffix in {".js", ".mjs"}]
    problems = [p for path in scripts for p in see_problems(path.read_text(encoding="utf-8"), path)]
    assert problems == []


WHERE = ROOT / "frontend" / "aiconnect" / "example.js"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("(specs/nowhere.md)", None),  # not a protocol text this project cites
        ('(specs/aiconnect-core.md, "runConversation")', None),
        ('(aiconnect-core.md, "McpToolSource" and "No such part")', 'has no section "No such part"'),
        ('// (wallet-provider.md, "The provider\n  // object")', None),
        ('// (wallet-provider.md, "The provider\n  // thing")', 'has no section "The provider thing"'),
        ("see ../../shared/specs/byoa-sites.md", "is not a file in the repository"),
        ('DESIGN.md, "Security rules"', None),
        ('DESIGN.md, "Security"', 'has no section "Security"'),
        ('(MCP 2025-06-18, "Session Management", item 4)', None),
        ('(MCP 2025-06-18, "Sessions")', 'has no section "Sessions"'),
        ("summarised in docs/specs/mcp-streamable-http.md", None),
        ("summarised in docs/specs/mcp.md", "docs/specs/mcp.md is not a file"),
    ],
)
def test_a_citation_is_checked_for_its_file_and_section(text, problem):
    problems = citation_problems(text, WHERE)
    assert (problem is None and problems == []) or (
        problem is not None and len(problems) == 1 and problem in problems[0]
    )


@pytest.mark.parametrize(
    "target, resolves",
    [
        ("../../docs/specs/wallet-provider.md#streaming-events", True),
        ("../../docs/specs/wallet-provider.md#no-such-heading", False),
        ("../../docs/specs/missing.md", False),
        ("https://example.com/anything", True),
        ("../../../../outside.md", False),
    ],
)
def test_a_relative_link_is_checked_for_its_file_and_heading(target, resolves):
    assert (markdown_link_problems(f"[x]({target})", WHERE) == []) is resolves
    assert (see_problems(f"/** @see {target} */", WHERE) == []) is resolves


# -- the docs site -------------------------------------------------------------------------

PACKAGES = ("byoa", "mcp_server", "visitor_ai", "testwallet")
# A fenced block that is no directive: the tutorial's steps (tests/test_packaging.py runs them),
# or a block a named test reads from this page.
MARKER = re.compile(r"^\s*<!-- (?:site: .+?|tested: (?P<test>\S+).*?) -->\s*$")
FENCE_OPEN = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


def docs_pages():
    """Return the Markdown pages of the docs site."""
    return sorted(
        path for path in DOCS.rglob("*.md") if "_build" not in path.parts and path.name != "README.md"
    )


def undirected_blocks(path):
    """Yield (line number, the line before) of each fenced block of a page that is not a directive."""
    lines = path.read_text(encoding="utf-8").splitlines()
    fence = None
    for number, line in enumerate(lines):
        opened = FENCE_OPEN.match(line)
        if fence is None and opened:
            fence = opened[1]
            if not opened[2].strip().startswith("{"):
                before = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), "")
                yield number + 1, before
        elif fence is not None and line.strip() == fence:
            fence = None


def test_the_readme_is_at_most_200_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_every_code_block_in_the_docs_is_a_file_or_a_block_a_test_runs():
    problems = []
    for path in docs_pages():
        page = path.relative_to(ROOT).as_posix()
        for number, before in undirected_blocks(path):
            marked = MARKER.match(before)
            if marked is None:
                problems.append(
                    f"{page}:{number}: no literalinclude, and no marker naming the test that reads it"
                )
            elif marked["test"] is None and path != DOCS / "tutorial.md":
                problems.append(f"{page}:{number}: a site: step outside the tutorial, which no test runs")
            elif marked["test"] is not None and page not in (ROOT / marked["test"]).read_text(
                encoding="utf-8"
            ):
                problems.append(f"{page}:{number}: {marked['test']} does not read this page")
    assert problems == []


def test_the_tutorial_has_steps_and_the_packaging_test_runs_them():
    tutorial = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    assert tutorial.count("<!-- site: install -->") == 1 and tutorial.count("<!-- site: test -->") == 1
    assert '"docs" / "tutorial.md"' in (ROOT / "tests" / "test_packaging.py").read_text(encoding="utf-8")


def test_every_environment_variable_the_demo_settings_read_has_a_row_on_the_demos_page():
    source = (ROOT / "sites" / "config" / "settings.py").read_text(encoding="utf-8")
    # Any helper with "env" in its name (env_flag, _env_list, _env_int, os.getenv ...), and os.environ.
    read = re.findall(
        r"""(?:\b(?i:\w*env\w*)|environ\.get)\(\s*["']([A-Z][A-Z0-9_]*)["']|environ\[\s*["']([A-Z][A-Z0-9_]*)["']\]""",
        source,
    )
    found = {name for pair in read for name in pair if name} | {"DATABASE_URL"}  # read by dj_database_url
    assert {"DJANGO_DEBUG", "REDIS_URL", "DJANGO_ALLOWED_HOSTS", "DJANGO_HSTS_SECONDS"} <= found
    page = (DOCS / "howto" / "try-the-demos.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", page, flags=re.MULTILINE))
    assert found - rows == set()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the docs site as `make docs` does (warnings as errors, references checked); return its folder."""
    built = tmp_path_factory.mktemp("docs-site")
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-n", "-q", DOCS, built]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return built


def documented_modules(package):
    """Return the modules whose __all__ is a package's public face: its own, else each public module's."""
    if hasattr(importlib.import_module(package), "__all__"):
        return [package]
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if any(part.startswith("_") for part in parts) or "migrations" in parts:
            continue
        if re.search(r"^__all__\s*=", path.read_text(encoding="utf-8"), flags=re.MULTILINE):
            found.append(".".join(parts))
    return found


def code_names(html):
    """Return the names the page shows as code (``<span class="pre">name</span>``)."""
    return set(re.findall(r'<span class="pre">([^<]+)</span>', html))


@pytest.mark.slow
@pytest.mark.xdist_group("docs")
@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_of_each_package_is_in_the_reference(site, package):
    html = (site / "reference" / f"{package}.html").read_text(encoding="utf-8")
    missing = []
    for module in documented_modules(package):
        for name in importlib.import_module(module).__all__:
            described = f'id="{module}.{name}"' in html
            # A name two modules export is described once, and the second names it.
            again = re.search(rf">{re.escape(name)}</span></code> \(the same as", html)
            if not described and not again:
                missing.append(f"{module}.{name}")
    assert missing == []


@pytest.mark.slow
@pytest.mark.xdist_group("docs")
def test_every_declared_setting_is_on_the_settings_page(site):
    from byoa.conf import SETTINGS
    from mcp_server.conf import DEFAULTS

    relay = (ROOT / "testwallet" / "relay" / "conf.py").read_text(encoding="utf-8")
    testwallet = set(re.findall(r"""given\.get\(["']([A-Z_]+)["']""", relay))
    assert {"MODEL_URL", "TIMEOUT"} <= testwallet  # the scan itself works
    declared = {s.name for s in SETTINGS} | set(DEFAULTS) | testwallet
    shown = code_names((site / "reference" / "settings.html").read_text(encoding="utf-8"))
    assert declared - shown == set()


@pytest.mark.slow
@pytest.mark.xdist_group("docs")
def test_every_system_check_is_on_the_checks_page(site):
    raised = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            raised |= set(re.findall(r"""["']([a-z_]+\.[EW]\d{3})["']""", path.read_text(encoding="utf-8")))
    assert {"byoa.E001", "mcp_server.W001", "testwallet.E002"} <= raised
    shown = code_names((site / "reference" / "checks.html").read_text(encoding="utf-8"))
    assert raised - shown == set()


@pytest.mark.slow
@pytest.mark.xdist_group("docs")
def test_the_fixtures_page_names_every_fixture_of_the_plugin(site):
    shown = code_names((site / "reference" / "fixtures.html").read_text(encoding="utf-8"))
    expected = {"daphne_server", "aiwallet", "byoa_extension", "direct_wallet", "browser_agent"}
    assert expected | {"builtin_model", "webmcp_browser"} <= shown
    # This repository's own PostgreSQL and Redis fixtures (tests/service_fixtures.py) are not the plugin's.
    assert not {"postgres_server", "redis_server"} & shown


@pytest.mark.parametrize("demo", ["bookshop", "geography", "twentyq"])
def test_each_demos_how_this_page_works_names_the_docs_page_of_its_pattern(demo):
    template = (ROOT / "sites" / demo / "templates" / demo / "index.html").read_text(encoding="utf-8")
    details = template.split("<summary>How this page works</summary>", 1)[1].split("</details>", 1)[0]
    pages = re.findall(r"<code>(docs/howto/[\w-]+\.md)</code>", details)
    assert pages and all((ROOT / page).is_file() for page in pages), pages


@pytest.mark.slow
@pytest.mark.xdist_group("docs")
@pytest.mark.parametrize("demo", ["bookshop", "geography", "twentyq"])
def test_each_demos_docs_links_open_pages_of_the_built_site(site, demo):
    # With DEBUG on the demo serves the built site at {{ docs_url }} (tests/home/test_docs_site.py).
    template = (ROOT / "sites" / demo / "templates" / demo / "index.html").read_text(encoding="utf-8")
    details = template.split("<summary>How this page works</summary>", 1)[1].split("</details>", 1)[0]
    linked = re.findall(r'href="\{\{ docs_url \}\}([^"]+)"', details)
    assert any(page.startswith("howto/") for page in linked), linked
    assert [page for page in linked if not (site / page).is_file()] == []


def js_reference_of(relative):
    """Return the JavaScript reference's Markdown for one module of frontend/ (docs/_ext)."""
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from visitor_ai_docs import js_module
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    return js_module(ROOT / "frontend" / relative)


def test_the_javascript_reference_gives_each_class_its_constructor_methods_and_properties():
    client = js_reference_of("aiconnect/client.js")
    assert "`new AiConnect()` (constructor)" in client
    assert "`connect()` (async method)" in client and "`subscribe(listener)` (method)" in client
    assert "`state` (property): `@type {ConnectionState} The current state.`" in client
    mcp = js_reference_of("aiconnect/mcp.js")
    assert "`new McpToolSource(url, clientName = 'aiconnect')` (constructor)" in mcp
    assert "`callTool(name, args)` (async method)" in mcp
    finding = client.split("`findWallet` (function)", 1)[1]
    assert "- Events it dispatches: `aiwallet:request`" in finding
    assert "- Events it listens for: `aiwallet:announce`" in finding
    assert "`ways` (getter)" in js_reference_of("ways/chooser.js")


def test_the_javascript_reference_writes_typedefs_without_comment_stars_with_their_properties():
    driver = js_reference_of("playwright/aiwallet-driver.js")
    types = js_reference_of("aiconnect/types.js")
    for text in (driver, types):
        shapes = re.findall(r"`@typedef ([^`]*)`", text)
        assert shapes and not [shape for shape in shapes if "*" in shape.replace("**", "")]
    assert "`ReplyOptions` (type)" in driver and "`WalletLink` (type)" in driver
    assert "- `{string} [title]`" in types  # McpToolAnnotations' @property lines
    assert "`ChatMessage` (type)\n: `@typedef {SystemMessage" in types  # not the module comment's mention


# The how-to pages whose examples are copies of files a test runs: readable as text in the Markdown
# source (on GitHub, in an editor), and kept true here.
COPIED = re.compile(
    r"<!-- tested: [^>]*?tests/test_docs\.py finds it in (\S+) -->\n(`{3,})[^\n]*\n(.*?)\n\2\n", re.DOTALL
)
HOWTO_PAGES = [
    "docs/howto/ci.md",
    "docs/howto/deploy.md",
    "docs/howto/models.md",
    "docs/howto/recorded-answers.md",
    "docs/howto/stand-ins.md",
    "docs/howto/static-files.md",
    "docs/howto/try-the-demos.md",
    "docs/howto/voice.md",
    "docs/howto/webmcp.md",
]


def test_every_howto_example_is_written_out_and_is_a_part_of_the_file_a_test_runs():
    problems = []
    for page in HOWTO_PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "{literalinclude}" not in text, f"{page}: write the example out, with its marker"
        copies = COPIED.findall(text)
        assert copies, f"{page}: no example marked"
        for source, _fence, block in copies:
            if block + "\n" not in (ROOT / source).read_text(encoding="utf-8"):
                problems.append(f"{page}: the block marked with {source} is not a part of that file")
    assert problems == []


def test_no_howto_page_is_left_unlisted():
    listed = {ROOT / page for page in HOWTO_PAGES}
    with_copies = {path for path in (DOCS / "howto").glob("*.md") if COPIED.search(path.read_text("utf-8"))}
    assert with_copies <= listed
