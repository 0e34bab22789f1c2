"""
What a live server serves under a static file's name, for tests that reach past the page.

With DEBUG off the server (the daphne_server fixture runs collectstatic) serves each
file under its hashed name only, minified, with a source map holding the readable
source; with DEBUG on, or before any collectstatic, under its plain name as written.
"""

import json
from urllib.parse import urljoin

from tests import loopback


def static_url(server, name):
    """Return the URL path the server serves the static file ``name`` under (hashed when collected)."""
    manifest = server.workdir / "static" / "staticfiles.json"
    if manifest.is_file():
        return "/static/" + json.loads(manifest.read_text())["paths"][name]
    return "/static/" + name


def readable_source(server, name):
    """Return the readable source the server's copy of the script ``name`` was made from.

    A minified script names its source map last (``//# sourceMappingURL=``), and the map
    holds the source esbuild read (visitor_ai/storage.py); an unminified one is its own source.
    """
    url = server.url + static_url(server, name)
    script = loopback.get(url)
    script.raise_for_status()
    last = script.text.rstrip().rsplit("\n", 1)[-1]
    if not last.startswith("//# sourceMappingURL="):
        return script.text
    source_map = loopback.get(urljoin(url, last.removeprefix("//# sourceMappingURL=")))
    source_map.raise_for_status()
    (source,) = source_map.json()["sourcesContent"]
    return source
