"""
The ``bringyourownagent://connect`` link a page opens (specs/byoa-sites.md,
"The link"), and the WebSocket endpoint it names.
"""

from urllib.parse import quote

from django.http.request import split_domain_port

from byoa.conf import byoa_setting
from byoa.protocol import VERSION

SCHEME = "bringyourownagent"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")


def build(endpoint, manifest, code):
    """Return the link for a WebSocket endpoint, a manifest's base64url text and a code."""
    return (
        f"{SCHEME}://connect?v={VERSION}"
        f"&endpoint={quote(endpoint, safe='')}"
        f"&manifest={manifest}"
        f"&session={code}"
    )


def endpoint_for(request):
    """Return the wallet route's URL as the wallet must open it for this request's host.

    wss:// always, except for a page served over plain HTTP from localhost:
    that is development by construction, and the wallet accepts ws://localhost
    only with its developer switch on.
    """
    configured = byoa_setting("ENDPOINT")
    if configured:
        return configured
    host = request.get_host()
    hostname, _port = split_domain_port(host)
    local = not request.is_secure() and hostname in LOOPBACK_HOSTS
    return f"{'ws' if local else 'wss'}://{host}{byoa_setting('WS_PATH')}"
