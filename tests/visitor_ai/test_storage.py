"""
visitor_ai.storage: collectstatic writes minified modules, with source maps, under
hashed names whose imports name each other's hashed names; and it says so when it
cannot.
"""

import json
import re
from pathlib import Path

import pytest
from django.core.files.storage import FileSystemStorage

from visitor_ai.exceptions import MinifierNotFound, UnhashedImport
from visitor_ai.storage import RELATIVE_URL, MinifiedManifestStaticFilesStorage

ROOT = Path(__file__).resolve().parents[2]
ESBUILD = ROOT / "frontend" / "node_modules" / ".bin" / "esbuild"

PAGE = """// @ts-check
/** The page: JSDoc and comments that must not reach the browser. */
import { twice } from './lib/maths.js';
export { twice } from './lib/maths.js';
import './lib/side.js';

/** Load the worklet and the lazy module on demand. */
export async function later() {
  const worklet = new URL('./lib/worklet.js', import.meta.url);
  const { lazy } = await import('./lib/lazy.js');
  return [worklet.href, lazy(twice(21))];
}
"""
SOURCES = {
    "page.js": PAGE,
    "lib/maths.js": "/** Double it. @param {number} n */\nexport function twice(n) {\n  return n * 2;\n}\n",
    "lib/side.js": "// a side effect\nglobalThis.sideLoaded = true;\n",
    "lib/worklet.js": "// an AudioWorklet\nexport const kind = 'worklet';\n",
    "lib/lazy.js": "import { twice } from './maths.js';\nexport const lazy = (n) => twice(n) + 1;\n",
}


def collect(tmp_path, storage_class=MinifiedManifestStaticFilesStorage, **options):
    """Run the storage's post-processing as collectstatic does, over SOURCES; return the storage."""
    source = tmp_path / "source"
    for name, text in SOURCES.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    finder_storage = FileSystemStorage(location=source)
    storage = storage_class(location=tmp_path / "root", base_url="/static/", **options)
    for name in SOURCES:
        with finder_storage.open(name) as handle:
            storage.save(name, handle)
    paths = {name: (finder_storage, name) for name in SOURCES}
    for _name, _hashed, processed in storage.post_process(paths):
        if isinstance(processed, Exception):
            raise processed
    return storage


def read(storage, name):
    with storage.open(storage.stored_name(name)) as handle:
        return handle.read().decode()


@pytest.fixture
def collected(tmp_path):
    if not ESBUILD.exists():
        pytest.skip("esbuild is not installed: make frontend-deps")
    return collect(tmp_path, esbuild=ESBUILD)


def test_every_form_of_import_names_the_hashed_file(collected):
    page = read(collected, "page.js")
    named = {
        form: re.search(pattern, page)["url"]
        for form, pattern in {
            "import from": r'import\{[^}]*\} ?from ?"(?P<url>[^"]+)"',
            "export from": r'export\{[^}]*\} ?from ?"(?P<url>[^"]+)"',
            "side effect": r'import ?"(?P<url>[^"]+)"',
            "dynamic": r'import\("(?P<url>[^"]+)"\)',
            "new URL": r'new URL\("(?P<url>[^"]+)",import\.meta\.url\)',
        }.items()
    }
    assert named == {
        "import from": "./" + collected.stored_name("lib/maths.js"),
        "export from": "./" + collected.stored_name("lib/maths.js"),
        "side effect": "./" + collected.stored_name("lib/side.js"),
        "dynamic": "./" + collected.stored_name("lib/lazy.js"),
        "new URL": "./" + collected.stored_name("lib/worklet.js"),
    }
    # A module imported by another imported module: the same hashed name both ways.
    assert f'"./{Path(collected.stored_name("lib/maths.js")).name}"' in read(collected, "lib/lazy.js")


def test_collected_scripts_are_minified_with_a_source_map_holding_the_readable_source(collected):
    page = read(collected, "page.js")
    assert "JSDoc" not in page and "@ts-check" not in page and "\n  " not in page
    (map_url,) = re.findall(r"//# sourceMappingURL=(\S+)", page)
    assert re.fullmatch(r"page\.js\.[0-9a-f]{12}\.map", map_url)
    with collected.open(map_url) as handle:
        source_map = json.load(handle)
    assert source_map["sourcesContent"] == [PAGE]
    assert source_map["sources"] == ["page.js"]


def test_collected_scripts_have_gzip_and_brotli_copies_and_maps_have_none(collected):
    hashed = collected.stored_name("page.js")
    assert collected.exists(hashed + ".gz") and collected.exists(hashed + ".br")
    (map_url,) = re.findall(r"//# sourceMappingURL=(\S+)", read(collected, "page.js"))
    assert not collected.exists(map_url + ".gz")


def test_a_module_left_importing_a_plain_name_stops_collectstatic(tmp_path):
    if not ESBUILD.exists():
        pytest.skip("esbuild is not installed: make frontend-deps")

    class WithoutNewUrl(MinifiedManifestStaticFilesStorage):
        patterns = tuple(
            (extension, tuple(p for p in patterns if p[0] != RELATIVE_URL))
            for extension, patterns in MinifiedManifestStaticFilesStorage.patterns
        )

    with pytest.raises(UnhashedImport, match=r"page\.[0-9a-f]{12}\.js: \./lib/worklet\.js"):
        collect(tmp_path, WithoutNewUrl, esbuild=ESBUILD)


def test_without_esbuild_collectstatic_says_how_to_install_it(tmp_path):
    with pytest.raises(MinifierNotFound, match=r"no esbuild at /nowhere/esbuild.*npm ci.*make frontend-deps"):
        collect(tmp_path, esbuild="/nowhere/esbuild")


def test_before_any_collectstatic_pages_name_the_plain_files(tmp_path):
    storage = MinifiedManifestStaticFilesStorage(location=tmp_path / "empty", base_url="/static/")
    assert storage.url("ways/index.js") == "/static/ways/index.js"
