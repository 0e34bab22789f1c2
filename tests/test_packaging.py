"""
The wheel gives a site everything, and the docs' tutorial (docs/tutorial.md) is a program.

The wheel is built from a copy of this working tree (not an editable install) with pip,
offline (setuptools comes with the dev extra). The tutorial's steps run in an empty
directory in a new venv. Its install line runs as written, with the venv's own pip (the
one `python -m venv` gives), in a folder holding a copy of the working tree named as the
line names the checkout: pip builds our package from it and installs it. The rest of what
the line installs (our dependencies, the extras it names and the other packages it names,
and nothing else) comes from this environment, offline: the distributions those
requirements need (read from the wheel's metadata, followed through each dependency's
own) are linked into one directory that a .pth line puts on the venv's path, where pip
finds them installed; another extra's packages (psycopg, hypercorn, pocketsphinx,
hypothesis) are not importable there.
"""

import email
import ensurepip
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("aiconnect", "byoa", "ui", "ways", "webmcp")
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


def tutorial_install_line():
    """Return the tutorial's one install step (``pip install ...``), as written."""
    (body,) = [body for action, body in tutorial_steps() if action == "install"]
    return body


# A local path as pip takes one (./folder, ../folder, /folder, or a built wheel), then any [extras].
LOCAL_PATH = re.compile(r"(?P<path>\.{0,2}/[^\[]+?|[^\[]+?\.whl)(?:\[(?P<extras>[^\]]*)\])?")


def tutorial_requirements():
    """Return (checkout, requirements) of the tutorial's install step.

    ``checkout`` is the folder the line installs our package from, relative to where it
    runs; in ``requirements`` that path is ``visitor-ai`` with the line's extras.
    """
    body = tutorial_install_line()
    words = shlex.split(body)
    assert words[:2] == ["pip", "install"] and len(words) > 2, f"the tutorial's install step: {body!r}"
    paths = [match for word in words[2:] if (match := LOCAL_PATH.fullmatch(word))]
    # Our package is on no index: pip installs it from the checkout, found from where the line runs.
    assert len(paths) == 1, f"the tutorial's install step names no checkout, or several: {body!r}"
    (path,) = paths
    assert not path["path"].endswith(".whl") and not path["path"].startswith("/"), body
    requirements = [Requirement(f"visitor-ai[{path['extras'] or ''}]")]
    requirements += [Requirement(word) for word in words[2:] if not LOCAL_PATH.fullmatch(word)]
    return Path(path["path"]), requirements


def run(command, cwd, env=None, timeout=300):
    """Run ``command``; fail with its output unless it exits 0; return the output."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{shlex.join(map(str, command))} exited {done.returncode}:\n{output}"
    return output


def copy_working_tree(source):
    """Copy this working tree into ``source``: its tracked files and new ones git does not ignore."""
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """Build the wheel of this working tree."""
    source = tmp_path_factory.mktemp("source")
    copy_working_tree(source)
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


def make_venv_with_its_pip(venv):
    """Make a venv holding the pip that ``python -m venv`` would put in it (ensurepip's)."""
    # ensurepip's wheel, from the stdlib's copy or the directory a distribution keeps it in
    # (WHEEL_PKG_DIR), installed by uv: the same pip as `python -m venv` installs, without the
    # seconds of CPU its bootstrap spends compiling all of pip on a shared machine.
    places = [Path(ensurepip.__file__).parent]
    if distribution_wheels := sysconfig.get_config_var("WHEEL_PKG_DIR"):
        places.append(Path(distribution_wheels))
    found = [wheel for place in places for wheel in place.rglob(f"pip-{ensurepip.version()}-*.whl")]
    if not found:  # ensurepip keeps it elsewhere: let it install it
        run([sys.executable, "-m", "venv", venv], cwd=venv)
        return
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=venv)
    uv_install = [ROOT / ".venv" / "bin" / "uv", "pip", "install", "--quiet", "--offline", "--no-deps"]
    run([*uv_install, "--python", venv / "bin" / "python", found[0]], cwd=venv)


@pytest.fixture(scope="module")
def site_python(wheel, tmp_path_factory):
    """Return the python of a new venv where the tutorial's install line ran as written."""
    venv = tmp_path_factory.mktemp("venv")
    make_venv_with_its_pip(venv)
    python = venv / "bin" / "python"
    purelib = Path(
        run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=venv).strip()
    )
    checkout, requirements = tutorial_requirements()
    dependencies = tmp_path_factory.mktemp("dependencies")
    link_distributions(distributions_needed(wheel, requirements), dependencies)
    (purelib / "dependencies.pth").write_text(f"{dependencies}\n")
    here = tmp_path_factory.mktemp("checkouts")  # where the developer runs the line
    copy_working_tree(here / checkout)
    build_backend = tmp_path_factory.mktemp("build-backend")
    link_distributions({"setuptools": metadata.distribution("setuptools")}, build_backend)
    # The line as written, its pip configured through the environment: against PyPI, pip spends
    # minutes resolving what the venv already reaches. With no index, pip finds every
    # dependency installed (the linked directory) and only builds and installs our package; the
    # build uses this environment's setuptools, put on the path for this command only, in place of
    # an isolated build environment that would need a setuptools wheel from an index.
    # PIP_NO_BUILD_ISOLATION=0 is pip's spelling of --no-build-isolation (pypa/pip#5735), and
    # PIP_CONFIG_FILE=os.devnull keeps the machine's own pip settings out.
    env = {name: value for name, value in site_environment(python).items() if not name.startswith("PIP_")}
    env |= {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",
        "PIP_CACHE_DIR": str(tmp_path_factory.mktemp("pip-cache")),
        "PYTHONPATH": str(build_backend),
    }
    output = run(["bash", "-e", "-c", tutorial_install_line()], cwd=here, env=env)
    # Nothing came from elsewhere: the one package installed is ours.
    installed = re.findall(r"^Successfully installed (.+)$", output, re.MULTILINE)
    assert len(installed) == 1 and re.fullmatch(r"visitor-ai-\S+", installed[0]), output
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
    # The stand-ins ship with testwallet (its relay's finder serves them with DEBUG on), never as
    # visitor_ai's static files, which production collects.
    stubs = {f"testwallet/stubs/{path.name}" for path in (ROOT / "frontend" / "testwallet").glob("*.js")}
    assert stubs and stubs <= names, f"missing from the wheel: {sorted(stubs - names)}"
    assert [name for name in names if name.startswith("visitor_ai/static/testwallet/")] == []
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
        if action not in ("install", "test"):  # the install line ran in the venv (site_python)
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


def this_environments_versions(path):
    """Write ``name==version`` of each distribution this environment runs, as a constraints file."""
    pins = {
        canonicalize_name(distribution.metadata["Name"]): distribution.version
        for distribution in metadata.distributions()
    }
    pins.pop("visitor-ai", None)  # the editable checkout: the wheel stands for it
    path.write_text("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
    return path


def test_the_package_alone_installs_what_the_framework_imports_and_stays_lean(wheel, tmp_path):
    # A real new venv, as `pip install visitor-ai` makes it (bytecode compiled), with the versions
    # this environment runs (under `make test`, uv.lock's; on a matrix row, the row's): the set
    # measured is the one the suite tests, not whatever PyPI released this morning. From the
    # index, as a site installs: uv's cache only saves the downloads, so an empty one (a new
    # machine's) gives the same venv, and what the cache holds never decides the outcome.
    uv = ROOT / ".venv" / "bin" / "uv"
    venv = tmp_path / "venv"
    run([uv, "venv", "--quiet", "--python", sys.executable, venv], cwd=tmp_path)
    install = [
        uv,
        "pip",
        "install",
        "--quiet",
        "--compile-bytecode",
        "--python",
        venv / "bin" / "python",
        "--constraints",
        this_environments_versions(tmp_path / "constraints.txt"),
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
