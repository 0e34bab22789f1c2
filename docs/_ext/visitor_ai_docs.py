"""
The reference pages' generated parts: each is read from the code it describes when the
docs are built, so a page cannot say what the code no longer does.

- ``{api-reference} <package>``: the package's public names. A package with ``__all__`` is
  documented by it; one without (``visitor_ai``, ``testwallet``) by each public module that
  declares one. autodoc renders each name from its docstring and typed signature.
- ``{byoa-settings}``: the ``BYOA`` keys from their one declaration, ``byoa.conf.SETTINGS``.
- ``{declared-settings} <dotted.path.of.DEFAULTS>``: a settings mapping's keys and defaults; the
  directive's lines say what each key means (``KEY: meaning``), and a key without one, or a
  meaning of no key, fails the build.
- ``{system-checks} <module> ...``: the check ids the modules' docstrings list
  (``    byoa.E001  what it means``) and the directive's own ``id: meaning`` lines; an id
  the packages' code raises with no meaning fails the build.
- ``{testwallet-fixtures} async|sync``: the fixtures the test wallet's plugin gives a suite,
  as ``pytest --fixtures -v`` prints them.
- ``{command-help} <module>``: what ``python -m <module> --help`` prints.
- ``{js-reference} <folder of frontend/>``: each module of the browser library with its
  exports, from their JSDoc.
"""

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("byoa", "mcp_server", "visitor_ai", "testwallet")
CHECK_ID = re.compile(r"""["']([a-z_]+\.[EW]\d{3})["']""")


def public_modules(package: str) -> list[str]:
    """Return the modules documenting a package: itself when it has ``__all__``, else its public ones that do."""
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


def public_names(package: str) -> dict[str, list[str]]:
    """Return {module: its __all__} of every module documenting ``package``."""
    return {name: list(importlib.import_module(name).__all__) for name in public_modules(package)}


def declared_check_ids() -> set[str]:
    """Return every system check id the framework's packages raise."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found |= set(CHECK_ID.findall(path.read_text(encoding="utf-8")))
    return found


def markdown_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


class MarkdownDirective(SphinxDirective):
    """A directive whose output is Markdown, parsed in place (headings allowed at the top level)."""

    def render(self, markdown: str) -> list[nodes.Node]:
        container = nodes.section() if "\n#" in "\n" + markdown else nodes.container()
        self.state.nested_parse(
            StringList(markdown.splitlines()), self.content_offset, container, match_titles=True
        )
        return list(container.children)

    def pairs(self) -> dict[str, str]:
        """Return the directive's own ``name: meaning`` lines (a line starting with spaces continues one)."""
        found: dict[str, str] = {}
        last = None
        for line in self.content:
            if line.startswith((" ", "\t")) and last:
                found[last] += " " + line.strip()
            elif line.strip():
                name, _, meaning = line.partition(": ")
                last = name.strip()
                found[last] = meaning.strip()
        return found


def autodoc_directive(value: object) -> str:
    """Return the autodoc directive that describes ``value``."""
    if isinstance(value, type):
        return "autoexception" if issubclass(value, BaseException) else "autoclass"
    return "autofunction" if callable(value) else "autodata"


class ApiReference(MarkdownDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        package = self.arguments[0]
        blocks = []
        first_described: dict[int, str] = {}  # a name two modules export is described where it first appears
        for module_name in public_modules(package):
            self.env.note_dependency(str(ROOT / (module_name.replace(".", "/") + ".py")))
            try:
                module = importlib.import_module(module_name)
            except Exception as error:  # whatever the import raises: the page cannot say what the module has
                raise self.error(
                    f"{module_name} cannot be imported: {type(error).__name__}: {error}"
                ) from error
            again = {}
            for name in module.__all__:
                value = getattr(module, name)
                if isinstance(value, (str, int, float, tuple)):
                    continue  # equal constants are not one object described twice
                if id(value) in first_described:
                    again[name] = first_described[id(value)]
                else:
                    first_described[id(value)] = f"{module_name}.{name}"
            heading = "" if module_name == package else f"## `{module_name}`\n\n"
            # Described one by one, after the module's members: a constant (autodoc leaves out one
            # it finds no comment for, however public) and a name the module gives only when asked
            # (a module __getattr__ with no __dir__, which autodoc does not see).
            one_by_one = [
                name
                for name in module.__all__
                if name not in again
                and (name not in dir(module) or autodoc_directive(getattr(module, name)) == "autodata")
            ]
            excluded = [*again, *(name for name in one_by_one if name in dir(module))]
            exclude = f"   :exclude-members: {', '.join(excluded)}\n" if excluded else ""
            # autodoc writes reStructuredText: MyST hands it to docutils' own parser.
            rst = f".. automodule:: {module_name}\n   :members:\n{exclude}"
            for name in one_by_one:
                rst += f"\n.. {autodoc_directive(getattr(module, name))}:: {module_name}.{name}\n"
            blocks.append(f"{heading}```{{eval-rst}}\n{rst}```\n")
            if again:
                same = [f"`{name}` (the same as {{py:obj}}`{first}`)" for name, first in again.items()]
                blocks.append("Also exported here: " + ", ".join(same) + ".\n")
        return self.render("\n".join(blocks))


class ByoaSettings(MarkdownDirective):
    def run(self) -> list[nodes.Node]:
        from byoa.conf import SETTINGS

        rows = [f"| `{s.name}` | `{s.shown_default}` | {markdown_cell(s.doc)} |" for s in SETTINGS]
        return self.render("| Key | Default | Meaning |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


class DeclaredSettings(MarkdownDirective):
    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        module, _, attribute = self.arguments[0].rpartition(".")
        defaults = getattr(importlib.import_module(module), attribute)
        meanings = self.pairs()
        missing, unknown = set(defaults) - set(meanings), set(meanings) - set(defaults)
        if missing or unknown:
            raise self.error(
                f"{self.arguments[0]}: no meaning for {sorted(missing)}; meanings of no key: {sorted(unknown)}"
            )
        rows = [
            f"| `{name}` | `{default!r}` | {markdown_cell(meanings[name])} |"
            for name, default in defaults.items()
        ]
        return self.render("| Key | Default | Meaning |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


class SystemChecks(MarkdownDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        meanings: dict[str, str] = {}
        for module in self.arguments[0].split():
            doc = importlib.import_module(module).__doc__ or ""
            last = None
            for line in doc.splitlines():
                match = re.match(r"^\s{2,}([a-z_]+\.[EW]\d{3})\s+(.+)$", line)
                if match:
                    last = match[1]
                    meanings[last] = match[2].strip()
                elif last and re.match(r"^\s{6,}\S", line):
                    meanings[last] += " " + line.strip()
                else:
                    last = None
        own = self.pairs()
        meanings.update(own)
        raised = declared_check_ids()
        if missing := raised - set(meanings):
            raise self.error(f"system checks with no meaning on this page: {sorted(missing)}")
        if gone := set(own) - raised:
            raise self.error(f"meanings of system checks the code no longer raises: {sorted(gone)}")
        rows = [f"| `{name}` | {markdown_cell(meanings[name])} |" for name in sorted(meanings)]
        return self.render("| Id | When |\n| --- | --- |\n" + "\n".join(rows) + "\n")


def run_python(*argv: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        raise ExtensionError(f"python {' '.join(argv)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


class TestwalletFixtures(MarkdownDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        face = self.arguments[0]
        off = "playwright" if face == "async" else "playwright-asyncio"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS"))}
        # In an empty folder: the fixtures any suite gets by installing the package, and no others.
        empty = Path(self.env.app.outdir).parent / "fixtures-probe"
        empty.mkdir(parents=True, exist_ok=True)
        printed = run_python(
            "-m",
            "pytest",
            "--fixtures",
            "-v",
            "-p",
            "no:cacheprovider",
            "-p",
            f"no:{off}",
            cwd=empty,
            env=env,
        )
        sections = re.split(r"^-+ fixtures defined from (\S+) -+$", printed, flags=re.MULTILINE)
        lines = []
        for source, body in zip(sections[1::2], sections[2::2], strict=True):
            if not source.startswith("testwallet"):
                continue
            for match in re.finditer(
                r"^(\w+)( \[\w+ scope\])? -- .*?\n((?:    .*\n|\n)*)", body, flags=re.MULTILINE
            ):
                name, scope, doc = match[1], (match[2] or "").strip(" []"), match[3]
                text = re.sub(r"\n\s*\n", "\n\n", "\n".join(line[4:] for line in doc.splitlines())).strip()
                text = text.replace("``", "`")
                shown = f"`{name}` ({scope})" if scope else f"`{name}`"
                lines.append(f"{shown}, from `{source}`\n: {indent_definition(text)}\n")
        if not lines:
            raise self.error(f"pytest --fixtures printed no fixture of the test wallet:\n{printed}")
        return self.render("\n".join(lines))


def indent_definition(text: str) -> str:
    """Return text as the body of a MyST definition (continuation lines indented)."""
    return "\n".join(line if i == 0 or not line else "  " + line for i, line in enumerate(text.splitlines()))


class CommandHelp(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        printed = run_python("-m", self.arguments[0], "--help", env={**os.environ, "COLUMNS": "100"})
        block = nodes.literal_block(printed, printed)
        block["language"] = "text"
        return [block]


EXPORT = re.compile(
    r"^export\s+(?:default\s+)?(?:async\s+)?(function\*?|class|const|let)\s+(\w+)", re.MULTILINE
)
DOC_BLOCK = re.compile(r"/\*\*(.*?)\*/", re.DOTALL)


def jsdoc_text(block: str) -> tuple[str, list[str]]:
    """Return a JSDoc block's description and its tag lines."""
    lines = [re.sub(r"^\s*\* ?", "", line) for line in block.strip().splitlines()]
    text, tags = [], []
    for line in lines:
        if line.lstrip().startswith("@"):
            tags.append(line.strip())
        elif tags and line.startswith(" "):  # a tag's description, continued
            tags[-1] += " " + line.strip()
        else:
            text.append(line)
    return "\n".join(text).strip(), tags


# A class member at the class body's indent: a method (static, async, a getter or setter, a
# generator), or a public field. Private ones (#name) are the class's own.
MEMBER = re.compile(
    r"^  (?P<static>static\s+)?(?P<async>async\s+)?(?P<accessor>(?:get|set)\s+)?\*?"
    r"(?P<name>[A-Za-z_$][\w$]*)\s*(?P<kind>\(|=|;)",
    re.MULTILINE,
)
EVENT = re.compile(r"dispatchEvent\(\s*new\s+\w*Event\(\s*['\"]([\w:.-]+)['\"]")
LISTENED = re.compile(r"addEventListener\(\s*['\"]([\w:.-]+)['\"]")
KEYWORDS = {"if", "for", "while", "switch", "return", "catch", "function"}


def jsdoc_before(source: str, blocks: list[re.Match[str]], at: int) -> tuple[str, list[str]]:
    """Return the JSDoc block right before ``at`` (only blank space between), or nothing."""
    before = [b for b in blocks if b.end() <= at and not source[b.end() : at].strip()]
    return jsdoc_text(before[-1][1]) if before else ("", [])


def code(text: str) -> str:
    """Return text as a Markdown code span, with a longer fence when it holds backticks itself."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def signature_tags(tags: list[str]) -> str:
    shown = [code(tag) for tag in tags if tag.startswith(("@param", "@returns", "@template", "@type "))]
    return "; ".join(shown)


def class_body(source: str, start: int) -> str:
    """Return the source of the class or function declared at ``start``, up to its closing brace at column 0."""
    end = re.compile(r"^\}", re.MULTILINE).search(source, start)
    return source[start : end.end() if end else len(source)]


def class_members(name: str, body: str) -> list[str]:
    """Return a Markdown line for each public member of a class: constructor, methods, properties, events."""
    blocks = list(DOC_BLOCK.finditer(body))
    lines = []
    for member in MEMBER.finditer(body):
        if member["name"] in KEYWORDS:
            continue
        description, tags = jsdoc_before(body, blocks, member.start())
        if member["kind"] == "(":
            parameters = " ".join(body[member.end() : body.find(")", member.end())].split())
            if member["name"] == "constructor":
                label = f"{code(f'new {name}({parameters})')} (constructor)"
            else:
                prefix = "static " if member["static"] else ""
                if member["accessor"]:
                    label = f"`{prefix}{member['name']}` ({member['accessor'].strip()}ter)"
                else:
                    call = f"{prefix}{member['name']}({parameters})"
                    label = f"{code(call)} ({'async ' if member['async'] else ''}method)"
        else:
            label = f"`{member['name']}` (property)"
        described = " ".join(part for part in (description.replace("\n", " "), signature_tags(tags)) if part)
        lines.append(f"- {label}: {described or '(no JSDoc)'}")
    return lines


def events(body: str) -> list[str]:
    """Return Markdown lines naming the events a class or function dispatches and listens for."""
    lines = []
    dispatched = sorted(set(EVENT.findall(body)))
    if dispatched:
        lines.append("- Events it dispatches: " + ", ".join(f"`{name}`" for name in dispatched))
    # A button's click and a signal's abort are the page's plumbing, not an API's events.
    listened = sorted(set(LISTENED.findall(body)) - {"click", "abort"})
    if listened:
        lines.append("- Events it listens for: " + ", ".join(f"`{name}`" for name in listened))
    return lines


def balanced(text: str, at: int) -> int:
    """Return the index just past the brace group that opens at ``text[at]``."""
    depth = 0
    for index in range(at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return index + 1
    return len(text)


def typedef_entry(rest: str) -> str | None:
    """Return the definition of one @typedef (the text after the tag), or None without a name."""
    shape = "{object}"
    if rest.startswith("{"):
        end = balanced(rest, 0)
        shape, rest = " ".join(rest[:end].split()), rest[end:]
    named = re.match(r"\s*(\w+)", rest)
    if named is None:
        return None
    after = rest[named.end() :]
    description = " ".join(line.strip() for line in after.split("@", 1)[0].splitlines() if line.strip())
    properties = [
        " ".join(line.split())
        for line in re.findall(r"@(?:property|prop)\s+(.+?)(?=\n@|\Z)", after, flags=re.DOTALL)
    ]
    definition = code(f"@typedef {markdown_cell(shape)}")
    if description:
        definition += f" {description}"
    if properties:
        definition += "\n\n" + "\n".join(f"- {code(markdown_cell(prop))}" for prop in properties)
    return f"`{named[1]}` (type)\n: {indent_definition(definition)}\n"


def typedefs(source: str) -> list[str]:
    """Return a definition for each @typedef: its shape on one line, its text and its properties."""
    entries = []
    for block in DOC_BLOCK.finditer(source):
        # The comment's own stars gone, as a reader writes the type.
        text = "\n".join(re.sub(r"^\s*\* ?", "", line) for line in block[1].strip().splitlines())
        # Each @typedef tag at a line's start (not prose naming one), up to the next: a block may hold several.
        for segment in re.split(r"^(?=@typedef\b)", text, flags=re.MULTILINE)[1:]:
            entry = typedef_entry(segment.removeprefix("@typedef").lstrip())
            if entry:
                entries.append(entry)
    return entries


def js_module(path: Path) -> str:
    """Return the Markdown of one module: its overview, its re-exports and each export with its JSDoc."""
    source = path.read_text(encoding="utf-8")
    relative = path.relative_to(ROOT).as_posix()
    parts = [f"### `{relative}`\n"]
    blocks = list(DOC_BLOCK.finditer(source))
    exports = list(EXPORT.finditer(source))
    first_export = exports[0].start() if exports else len(source)
    # The module's own comment: a first JSDoc block that is not the first export's.
    leads_export = blocks and source[blocks[0].end() : first_export].strip().startswith("export")
    if blocks and blocks[0].start() < first_export and not leads_export:
        overview, _ = jsdoc_text(blocks[0][1])
        if overview and "@typedef" not in blocks[0][1]:
            parts.append(overview + "\n")
    reexports = re.findall(r"^export \{([^}]*)\} from '([^']+)';", source, flags=re.MULTILINE)
    if reexports:
        listed = []
        for names, origin in reexports:
            quoted = ", ".join(f"`{name.strip()}`" for name in names.split(",") if name.strip())
            listed.append(f"{quoted} from `{origin}`")
        parts.append("Re-exports: " + "; ".join(listed) + ".\n")
    entries = []
    for export in exports:
        description, tags = jsdoc_before(source, blocks, export.start())
        kind = {"const": "constant", "let": "variable"}.get(export[1], export[1].rstrip("*"))
        text = description or "(no JSDoc)"
        signature = signature_tags(tags)
        text += "\n\n" + signature if signature else ""
        body = class_body(source, export.start()) if export[1] in ("class", "function") else ""
        members = class_members(export[2], body) if export[1] == "class" else []
        members += events(body)
        text += "\n\n" + "\n".join(members) if members else ""
        entries.append(f"`{export[2]}` ({kind})\n: {indent_definition(text)}\n")
    entries += typedefs(source)
    return "\n".join(parts + entries)


class JsReference(MarkdownDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        folder = ROOT / "frontend" / self.arguments[0]
        modules = sorted(folder.glob("*.js"), key=lambda p: (p.name != "index.js", p.name))
        if not modules:
            raise self.error(f"no modules in {folder}")
        for path in modules:
            self.env.note_dependency(str(path))
        return self.render("\n".join(js_module(path) for path in modules))


TUTORIAL_STEP = re.compile(r"^(<!-- site: (?P<action>.+?) -->)\n+```(?P<lang>[a-z]*)\n", re.MULTILINE)


def caption(action: str) -> str:
    """Return what a tutorial step's block is, as its caption says it: the file it writes, or where."""
    verb, _, rest = action.partition(" ")
    if verb == "write":
        return rest
    if verb == "append":
        return f"{rest}, at its end"
    if verb == "replace":
        name, _, path = rest.partition(" in ")
        return f"{path}: {name}"
    return "in your shell, in the project's folder"


def show_tutorial_steps(app: Sphinx, docname: str, source: list[str]) -> None:
    """Caption each marked block of the tutorial with its file: the marker itself is an HTML comment."""
    if docname != "tutorial":
        return
    source[0] = TUTORIAL_STEP.sub(
        lambda step: (
            f"{step[1]}\n```{{code-block}} {step['lang'] or 'text'}\n:caption: {caption(step['action'])}\n\n"
        ),
        source[0],
    )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", show_tutorial_steps)
    app.add_directive("api-reference", ApiReference)
    app.add_directive("byoa-settings", ByoaSettings)
    app.add_directive("declared-settings", DeclaredSettings)
    app.add_directive("system-checks", SystemChecks)
    app.add_directive("testwallet-fixtures", TestwalletFixtures)
    app.add_directive("command-help", CommandHelp)
    app.add_directive("js-reference", JsReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
