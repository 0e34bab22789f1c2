"""
The invitation a page hands the visitor's wallet: the server builds the
``bringyourownagent://connect`` link (specs/byoa-sites.md, "The link") and
chooses the WebSocket endpoint it names. The wallet's side, which checks such
a link, is ``testwallet.direct.link_checks``.

A link is built only with an endpoint that the wallet's host rules accept
(``byoa.wire.endpoints``): a wallet refuses any other link in silence, so the page
would wait in vain. With DEBUG on, ws:// and wss:// to localhost, 127.0.0.1
and [::1] are accepted too, for a wallet run with BYOA_WALLET_DEV_LOCAL=1.
"""

from urllib.parse import quote, urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.http.request import split_domain_port

from byoa.conf import byoa_setting
from byoa.exceptions import EndpointRefused
from byoa.pairing import route_ids
from byoa.wire import endpoints
from byoa.wire.protocol import VERSION

SCHEME = "bringyourownagent"
_ORIGIN_SCHEMES = {"wss": "https", "ws": "http"}  # a WebSocket URL's origin is its http(s) twin
_DEFAULT_PORTS = {"https": 443, "http": 80}


def build(endpoint: str, manifest: str, code: str) -> str:
    """Return the link for a WebSocket endpoint, a manifest's base64url text and a code."""
    return (
        f"{SCHEME}://connect?v={VERSION}"
        f"&endpoint={quote(endpoint, safe='')}"
        f"&manifest={manifest}"
        f"&session={code}"
    )


def endpoint_for(request: HttpRequest, route_id: str | None = None) -> str:
    """Return the wallet route's URL as the wallet must open it; raise EndpointRefused if a wallet refuses it.

    ``BYOA["ENDPOINT"]`` when set, else built from the request's host; with
    ``route_id``, that id is its last path segment (``byoa.pairing.route_ids``), so a
    proxy sends the wallet to the process the page's requests go to.
    """
    endpoint: str = byoa_setting("ENDPOINT") or endpoint_at(request.get_host(), request.is_secure())
    if route_id is not None:
        endpoint = route_ids.routed_endpoint(endpoint, route_id)
    reason = endpoints.problem(endpoint, dev_local=settings.DEBUG)
    if reason:
        raise EndpointRefused(endpoint, reason)
    return endpoint


def endpoint_at(host: str, secure: bool) -> str:
    """Return the wallet route's URL on ``host`` (a Host header value).

    wss:// always, except for a page served over plain HTTP from localhost:
    that is development by construction (and accepted only with DEBUG on).
    """
    hostname, _port = split_domain_port(host)
    local = not secure and endpoints.is_loopback(hostname)
    return f"{'ws' if local else 'wss'}://{host}{byoa_setting('WS_PATH')}"


def own_origin(host: str, secure: bool) -> str:
    """Return the origin of the endpoint links to this host carry, or "" for a host this site does not serve.

    ``host`` is the Host header of a connection to the wallet route and
    ``secure`` whether it came over TLS. A wallet's WebSocket client may send
    this Origin (several libraries do by default); a page of another site
    cannot, since its browser sends that site's origin.
    """
    configured = byoa_setting("ENDPOINT")
    if configured:
        return origin_of(configured)
    request = HttpRequest()
    request.META["HTTP_HOST"] = host
    try:
        request.get_host()  # Django's own Host rule, DEBUG's localhost names included
    except DisallowedHost:
        return ""
    return origin_of(endpoint_at(host, secure))


def origin_of(url: str) -> str:
    """Return the web origin of a ws://, wss://, http:// or https:// URL, or "" for anything else.

    The form is https://host[:port], the host in lower case and no default
    port, so that an Origin header and an endpoint compare as equal strings.
    """
    try:
        parts = urlsplit(url)
        scheme, port = _ORIGIN_SCHEMES.get(parts.scheme, parts.scheme), parts.port
    except (ValueError, TypeError):
        return ""
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, _DEFAULT_PORTS[scheme]) else "")
