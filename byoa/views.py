"""
The two HTTP endpoints of the direct link, for the page.

``POST /byoa/code`` answers ``{"session": <wait id>, "link": <link>}``. The
link carries the one-time code; ``session`` is a separate handle for
``/byoa/wait``, because daphne writes query strings into its access log and a
code in a log could pair a stranger's wallet with this visitor. The page
treats both as opaque strings, exactly as in the spec's sample.

These are ordinary Django POST views: CSRF protection stays on, so the page
sends Django's token (``X-CSRFToken``) with its fetch.
"""

import json

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from byoa import codes, links, manifests, visitors
from byoa.exceptions import RateLimited, UnknownManifest


@never_cache
@require_POST
def code(request, manifest=None):
    """Issue a code for this browser session and return it in a link.

    The manifest is the URLconf's ``manifest`` argument, else the request's
    ``manifest`` field (form or JSON), else the site's default one.
    """
    try:
        chosen = manifests.get(manifest or _requested_manifest(request))
    except UnknownManifest as exc:
        return JsonResponse({"error": "unknown-manifest", "message": str(exc)}, status=404)
    try:
        secret, wait_id = codes.issue(visitors.visitor_id(request), request.META.get("REMOTE_ADDR"), chosen)
    except RateLimited as exc:
        response = JsonResponse({"error": "rate-limited", "message": str(exc)}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    link = links.build(links.endpoint_for(request), chosen.encoded, secret)
    return JsonResponse({"session": wait_id, "link": link})


def _requested_manifest(request):
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            return None
        return body.get("manifest") if isinstance(body, dict) else None
    return request.POST.get("manifest") or None


@never_cache
@require_GET
def wait(request):
    """Say whether a wallet has come with this session's code: waiting, connected or expired."""
    state = codes.wait_state(request.GET.get("session"), visitors.existing_visitor_id(request))
    return JsonResponse({"state": state.value})
