"""
The two HTTP endpoints of the direct link, for the page.

``POST /byoa/code`` answers ``{"session": <wait id>, "link": <link>}``. The
link carries the one-time code; ``session`` is a separate handle for
``/byoa/wait``, because daphne writes query strings into its access log and a
code in a log could pair a stranger's wallet with this visitor. The page
treats both as opaque strings, exactly as in the spec's sample.

These are ordinary Django POST views: CSRF protection stays on, so the page
sends Django's token (``X-CSRFToken``) with its fetch.

A link whose endpoint a wallet would refuse (``byoa.endpoints``: an IP
address, localhost without DEBUG, a local name, not wss://) is never built:
``POST /byoa/code`` answers 500 with ``{"error": "endpoint-refused",
"message": ...}`` naming the setting to fix, and issues no code. It is a 500,
not a 4xx, because nothing in the request is wrong: the server is configured
for links that no wallet accepts, and no retry by the page can change that.
"""

import json
import logging

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from byoa import codes, invitations, manifests, visitor_ids
from byoa.exceptions import EndpointRefused, RateLimited, UnknownManifest

logger = logging.getLogger(__name__)


@never_cache
@require_POST
def code(request: HttpRequest, manifest: str | None = None) -> JsonResponse:
    """Issue a code for this browser session and return it in a link.

    The manifest is the URLconf's ``manifest`` argument, else the request's
    ``manifest`` field (form or JSON), else the site's default one.
    """
    try:
        chosen = manifests.get(manifest or _requested_manifest(request))
    except UnknownManifest as exc:
        return JsonResponse({"error": "unknown-manifest", "message": str(exc)}, status=404)
    try:
        endpoint = invitations.endpoint_for(request)  # before a code is issued: a refused link costs none
    except EndpointRefused as exc:
        logger.error("BYOA cannot build a link: %s", exc)
        return JsonResponse({"error": "endpoint-refused", "message": str(exc)}, status=500)
    try:
        visitor = visitor_ids.visitor_id(request)
        secret, wait_id = codes.issue(visitor, request.META.get("REMOTE_ADDR"), chosen)
    except RateLimited as exc:
        response = JsonResponse({"error": "rate-limited", "message": str(exc)}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return JsonResponse({"session": wait_id, "link": invitations.build(endpoint, chosen.encoded, secret)})


def _requested_manifest(request: HttpRequest) -> str | None:
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            return None
        return body.get("manifest") if isinstance(body, dict) else None
    return request.POST.get("manifest") or None


@never_cache
@require_GET
def wait(request: HttpRequest) -> JsonResponse:
    """Say whether a wallet has come with this session's code: waiting, connected or expired."""
    state = codes.wait_state(request.GET.get("session"), visitor_ids.existing_visitor_id(request))
    return JsonResponse({"state": state.value})
