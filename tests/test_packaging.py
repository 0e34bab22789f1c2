"""
The wheel gives a site everything, and the docs' tutorial (docs/tutorial.md) is a program.

The wheel is built from this working tree (not an editable install) with pip,
offline (setuptools comes with the dev extra). The tutorial's steps run in an empty
directory in a venv where the wheel is the only copy of our packages, installed as
the tutorial's `pip install "visitor-ai[...]" ...` line would: its dependencies, the
extras the line names and the other packages it names, and nothing else. They come
from this environment, offline: the distributions those requirements need (read from
the wheel's metadata, followed through each dependency's own) are linked into one
directory that a .pth line puts on the venv's path, so another extra's packages
(psycopg, hypercorn, pocketsphinx, hypothesis) are not importable there. The one step
not run as written is that install line: the venv gets the wheel in place of the index.
"""

import email
import os
import re
import shlex
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("aiconnect", "byoa", "ui", "ways", "webmcp", "testwallet")
# What the tutorial installs ([test], [daphne], dj-database-url) brings none of the other extras' packages.
OTHER_EXTRAS_ONLY = (
    "psycopg",
    "channels_redis",
    "hypercorn",
    "granian",
    "wsproto",
    "pocketsphinx",
    "faster_whisper",
    "hypothesis",
)
TUTORIAL = ROOT / "docs" / "tutorial.md"
STEP = re.compile(r"^<!-- site: (?P<action>.+?) -->\n+```[a-z]*\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)

# make test's --dist loadgroup runs the module in one worker: the wheel and its venv are made once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]


def tutorial_steps():
    """Return (action, block) for each marked block of the tutorial, in order."""
    page = TUTORIAL.read_text(encoding="utf-8")
    return [(match["action"], match["body"]) for match in STEP.finditer(page)]


def tutorial_requirements():
    """Return the requirements of the tutorial's one install step (``pip install ...``)."""
    (body,) = [body for action, body in tutorial_steps() if action == "install"]
    words = shlex.split(body)
    assert words[:2] == ["pip", "install"] and len(words) > 2, f"the tutorial's install step: {body!r}"
    requirements = [Requirement(word) for word in words[2:]]
    assert "visitor-ai" in [canonicalize_name(r.name) for r in requirements], body
    return requirements


def run(command, cwd, env=None, timeout=300):
    """Run ``command``; fail with its output unless it exits 0; return the output."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{shlex.join(map(str, command))} exited {done.returncode}:\n{output}"
    return output


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """Build the wheel of this working tree: its tracked files and new ones git does not ignore."""
    source = tmp_path_factory.mktemp("source")
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        origin, copy = ROOT / name, source / name
        if not origin.is_symlink() and not origin.is_file():
            continue  # deleted in the working tree
        copy.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_symlink():
            copy.symlink_to(os.readlink(origin))
        else:
            copy.write_bytes(origin.read_bytes())
    dist = tmp_path_factory.mktemp("dist")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    run([*pip_wheel, "-w", dist, source], cwd=source)
    (built,) = dist.glob("visitor_ai-*.whl")
    return built


def distributions_needed(wheel, requirements):
    """Return {name: Distribution} of this environment that the requirements need, ``visitor-ai`` from the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        own = email.message_from_bytes(archive.read(name)).get_all("Requires-Dist") or []
    found, seen = {}, set()
    pending = [(requirement, frozenset(requirement.extras)) for requirement in requirements]
    while pending:
        requirement, active = pending.pop()
        if requirement.marker and not any(
            requirement.marker.evaluate({"extra": extra}) for extra in active or {""}
        ):
            continue
        key = (canonicalize_name(requirement.name), frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        if key[0] == "visitor-ai":  # one of our extras naming another: the wheel's own requirements again
            pending += [(Requirement(line), key[1]) for line in own]
            continue
        distribution = metadata.distribution(requirement.name)
        found[key[0]] = distribution
        pending += [(Requirement(line), key[1]) for line in distribution.requires or []]
    return found


def link_distributions(distributions, directory):
    """Link each distribution's top-level modules, packages and metadata into ``directory``."""
    for distribution in distributions.values():
        for top in {file.parts[0] for file in distribution.files or () if file.parts[0] != ".."}:
            target = directory / top
            if not target.exists() and top != "__pycache__" and not top.endswith(".pth"):
                target.symlink_to(Path(distribution.locate_file(top)).resolve())


@pytest.fixture(scope="module")
def site_python(wheel, tmp_path_factory):
    """Return the python of a new venv with the wheel installed and what the tutorial installs reachable."""
    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=venv)
    python = venv / "bin" / "python"
    purelib = Path(
        run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=venv).strip()
    )
    dependencies = tmp_path_factory.mktemp("dependencies")
    link_distributions(distributions_needed(wheel, tutorial_requirements()), dependencies)
    (purelib / "dependencies.pth").write_text(f"{dependencies}\n")
    pip_install = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
    ]
    run([*pip_install, wheel], cwd=venv)
    return python


def site_environment(python):
    """Return an environment with nothing of this checkout or its settings in it."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "PYTEST_", "VISITOR_AI_", "BYOA_", "TESTWALLET_"))
        and name not in ("DATABASE_URL", "REDIS_URL", "PYTHONPATH", "VIRTUAL_ENV")
    }
    path = [entry for entry in env.get("PATH", "").split(os.pathsep) if not entry.startswith(str(ROOT))]
    env["PATH"] = os.pathsep.join([str(python.parent), *path])
    return env


def test_the_wheel_holds_the_browser_library_and_no_demos(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for lib in LIBRARY:
        shipped = {
            f"visitor_ai/static/{lib}/{path.relative_to(ROOT / 'frontend' / lib)}"
            for path in (ROOT / "frontend" / lib).rglob("*")
            if path.suffix in (".js", ".css")
        }
        assert shipped and shipped <= names, f"missing from the wheel: {sorted(shipped - names)}"
    assert "testwallet/stubs/aiwallet.js" in names
    assert {"visitor_ai/apps.py", "visitor_ai/asgi.py"} <= names
    assert [name for name in names if name.startswith(("sites/", "frontend/", "tests/"))] == []
    (top_level,) = [name for name in names if name.endswith(".dist-info/top_level.txt")]
    assert "sites" not in zipfile.ZipFile(wheel).read(top_level).decode().split()


def test_the_wheel_marks_each_package_typed(wheel):
    # PEP 561: without py.typed a site's type checker ignores the annotations of an installed package.
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = ("byoa", "mcp_server", "testwallet", "visitor_ai")
    assert [package for package in packages if f"{package}/py.typed" not in names] == []


def test_a_site_with_the_wheel_cannot_import_the_demos_as_sites(site_python, tmp_path):
    env = site_environment(site_python)
    done = subprocess.run(
        [site_python, "-c", "import sites"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert "ModuleNotFoundError: No module named 'sites'" in done.stderr
    assert run(
        [site_python, "-c", "import visitor_ai; print(visitor_ai.__file__)"], cwd=tmp_path, env=env
    ).startswith(str(site_python.parent.parent))


def test_the_test_extra_brings_the_test_wallet_and_no_other_extras_packages(site_python, tmp_path):
    env = site_environment(site_python)
    run(
        [site_python, "-c", "import testwallet.plugin, testwallet.direct, playwright, pytest_django"],
        cwd=tmp_path,
        env=env,
    )
    for module in OTHER_EXTRAS_ONLY:
        done = subprocess.run(
            [site_python, "-c", f"import {module}"], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert f"No module named '{module}'" in done.stderr, f"{module} came with [test]: {done.stderr}"


def apply_step(project, action, body, env):
    """Do what one marked block of the tutorial says, in ``project``."""
    verb, _, rest = action.partition(" ")
    if verb == "run":
        run(["bash", "-e", "-c", body], cwd=project, env=env)
    elif verb == "write":
        target = project / rest
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    elif verb == "append":
        target = project / rest
        target.write_text(target.read_text(encoding="utf-8") + "\n" + body, encoding="utf-8")
    elif verb == "replace":
        name, _, path = rest.partition(" in ")
        target = project / path
        # A top-level assignment, up to the line that closes it at the left margin.
        assignment = re.compile(rf"^{re.escape(name)} = .*?^[\]}}]\n", re.MULTILINE | re.DOTALL)
        text, replaced = assignment.subn(lambda _: body, target.read_text(encoding="utf-8"))
        assert replaced == 1, f"tutorial: no {name} = ... in {path}"
        target.write_text(text, encoding="utf-8")
    else:
        raise AssertionError(f"tutorial: unknown step {action!r}")


@pytest.mark.browser
@pytest.mark.live
def test_the_tutorial_makes_a_new_project_a_site_whose_test_passes(site_python, tmp_path):
    env = site_environment(site_python)
    project = tmp_path / "mysite"
    project.mkdir()
    steps = tutorial_steps()
    assert [action for action, _ in steps].count("test") == 1
    assert steps[0][0] == "install" and "startproject" in steps[1][1]
    for action, body in steps:
        if action not in ("install", "test"):  # the venv has the wheel in place of the install line
            apply_step(project, action, body, env)
    (command,) = [body for action, body in steps if action == "test"]

    done = subprocess.run(
        ["bash", "-e", "-c", command], cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    tests = sum(body.count("\nasync def test_") + body.startswith("async def test_") for _, body in steps)
    assert tests >= 6  # the AI Wallet page's three and the agent wallet's three
    assert re.search(rf"\b{tests} passed\b", output), output
    assert "warning" not in output.lower(), output
    # The server and its migrate ran on the fixture's database: the developer's was never made.
    assert not (project / "db.sqlite3").exists()
    # The page's library came from the installed wheel, not from this checkout.
    found = run([site_python, "manage.py", "findstatic", "aiconnect/index.js"], cwd=project, env=env)
    assert str(site_python.parent.parent) in found and str(ROOT) not in found, found


def test_a_site_with_the_wheel_collects_the_library_minified_under_hashed_names(site_python, tmp_path):
    env = site_environment(site_python)
    project = tmp_path / "staticsite"
    project.mkdir()
    run([site_python, "-m", "django", "startproject", "staticsite", "."], cwd=project, env=env)
    esbuild = ROOT / "frontend" / "node_modules" / ".bin" / "esbuild"
    settings = project / "staticsite" / "settings.py"
    settings.write_text(
        settings.read_text()
        + f"""
DEBUG = False  # {{% static %}} names the hashed files only with DEBUG off
INSTALLED_APPS += ["visitor_ai"]
STATIC_ROOT = BASE_DIR / "collected"
STORAGES = {{
    "default": {{"BACKEND": "django.core.files.storage.FileSystemStorage"}},
    "staticfiles": {{
        "BACKEND": "visitor_ai.storage.MinifiedManifestStaticFilesStorage",
        "OPTIONS": {{"esbuild": {str(esbuild)!r}}},
    }},
}}
"""
    )
    run([site_python, "manage.py", "collectstatic", "--noinput"], cwd=project, env=env)
    url = (
        run(
            [
                site_python,
                "manage.py",
                "shell",
                "-c",
                "from django.template import engines; "
                "print(engines['django'].from_string(\"{% load static %}{% static 'aiconnect/index.js' %}\").render())",
            ],
            cwd=project,
            env=env,
        )
        .strip()
        .splitlines()[-1]
    )  # after the shell's own line about what it imported
    assert re.fullmatch(r"/static/aiconnect/index\.[0-9a-f]{12}\.js", url), url
    index = (project / "collected" / url.removeprefix("/static/")).read_text()
    assert "@ts-check" not in index  # minified: no comments
    imported = re.findall(r'from ?"(\./[^"]+)"', index)
    assert imported and all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imported), imported
    # Compressed beside it: gzip always, brotli too where the site installs whitenoise[brotli].
    assert (project / "collected" / (url.removeprefix("/static/") + ".gz")).exists()


#: The most a site's environment takes for the package alone, no extras (pip itself not counted).
MOST_DISTRIBUTIONS = 45
MOST_MEGABYTES = 100


def test_the_package_alone_installs_what_the_framework_imports_and_stays_lean(wheel, tmp_path):
    # A real new venv, as `pip install visitor-ai` makes it (bytecode compiled), offline from
    # the cache that this checkout's own install filled.
    uv = ROOT / ".venv" / "bin" / "uv"
    venv = tmp_path / "venv"
    run([uv, "venv", "--quiet", "--python", sys.executable, venv], cwd=tmp_path)
    install = [
        uv,
        "pip",
        "install",
        "--quiet",
        "--offline",
        "--compile-bytecode",
        "--python",
        venv / "bin" / "python",
    ]
    run([*install, wheel], cwd=tmp_path)
    (site_packages,) = (venv / "lib").glob("python3.*/site-packages")
    installed = sorted(path.name.split("-")[0] for path in site_packages.glob("*.dist-info"))
    assert "pip" not in installed  # a uv venv has none: nothing to leave out
    megabytes = sum(path.stat().st_size for path in site_packages.rglob("*") if path.is_file()) / 1e6
    assert len(installed) <= MOST_DISTRIBUTIONS, installed
    assert megabytes <= MOST_MEGABYTES, f"{megabytes:.0f} MB: {installed}"
    # One JSON Schema validator, and none of the servers', the demos' or the scale parts' packages.
    for extra_only in (
        "jsonschema_rs",
        "daphne",
        "Twisted",
        "babel",
        "dj_database_url",
        "channels_redis",
        "redis",
    ):
        assert extra_only not in installed
    done = subprocess.run(
        [venv / "bin" / "python", "-c", CORE_IMPORTS],
        cwd=tmp_path,
        env=site_environment(venv / "bin" / "python"),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# A site's minimal settings, then every module of the framework's apps a site's process imports.
CORE_IMPORTS = """
import django
from django.conf import settings

settings.configure(
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                    "django.contrib.staticfiles", "channels", "visitor_ai", "mcp_server", "byoa"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    ROOT_URLCONF="byoa.urls", STATIC_URL="static/",
)
django.setup()
import byoa.consumers, mcp_server.server, visitor_ai.storage
from visitor_ai.asgi import get_asgi_application

get_asgi_application()
"""
