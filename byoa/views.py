"""
The HTTP endpoints of the direct link, for the page.

``POST /byoa/code`` answers ``{"session": <wait id>, "link": <link>}`` and sets the browser's
route id cookie (``byoa.pairing.route_ids``); ``GET /byoa/wait?session=`` says whether a wallet came
with it (and which), and ``POST /byoa/disconnect`` ends the pairing it opened. CSRF protection
stays on (the page sends ``X-CSRFToken``). A body that is not a JSON object of text answers 400
``{"error": "bad-request"}``; a configured endpoint that wallets refuse answers 500
``{"error": "endpoint-refused"}``. Why: docs/explanation/modules.md.
"""

import logging
from typing import NotRequired, TypedDict, cast

from django.apps import apps
from django.http import HttpRequest, JsonResponse
from django.utils.log import log_response
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from byoa.apps import ByoaConfig
from byoa.exceptions import EndpointRefused, RateLimited, UnknownManifest
from byoa.models import Pairing
from byoa.pairing import codes, invitations, manifests, route_ids, visitor_ids
from byoa.pairing.pairings import stop_pairings
from byoa.wire import protocol

logger = logging.getLogger(__name__)


class WaitAnswer(TypedDict):
    """What ``GET /byoa/wait`` answers."""

    state: str  # a codes.WaitState value
    wallet: NotRequired[str]  # once connected: the name the wallet's hello gave
    active: NotRequired[bool]  # once connected: whether the pairing is still active


@never_cache
@require_POST
def code(request: HttpRequest, manifest: str | None = None) -> JsonResponse:
    """Issue a code for this browser session and return it in a link.

    The manifest is the URLconf's ``manifest`` argument, else the request's
    ``manifest`` field (form or JSON), else the site's default one.
    """
    try:
        chosen = manifests.get_manifest(manifest or _requested_field(request, "manifest"))
    except BadBody as exc:
        return _bad_body(exc)
    except UnknownManifest as exc:
        return JsonResponse({"error": "unknown-manifest", "message": str(exc)}, status=404)
    route_id = route_ids.route_id_for(request)  # the browser's, or a new one: its wallet meets it there
    try:
        endpoint = invitations.endpoint_for(request, route_id)  # before a code: a refused link costs none
    except EndpointRefused as exc:
        response = JsonResponse({"error": "endpoint-refused", "message": str(exc)}, status=500)
        # Logged here, in place of Django's own "Internal Server Error" line for the 500.
        level = cast(ByoaConfig, apps.get_app_config("byoa")).endpoint_refusal_level()
        log_response(
            "BYOA cannot build a link: %s",
            str(exc),
            response=response,
            request=request,
            logger=logger,
            level=level,
        )
        return response
    try:
        visitor = visitor_ids.visitor_id(request)
        secret, wait_id = codes.issue(visitor, request.META.get("REMOTE_ADDR"), chosen)
    except RateLimited as exc:
        response = JsonResponse({"error": "rate-limited", "message": str(exc)}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    response = JsonResponse({"session": wait_id, "link": invitations.build(endpoint, chosen.encoded, secret)})
    route_ids.set_route_cookie(response, request, route_id)
    return response


class BadBody(ValueError):
    """Raised when a JSON body is not a JSON object of Unicode text (answered 400)."""


def _requested_field(request: HttpRequest, name: str) -> str | None:
    """Return a string field of a JSON or form body, or None; raise BadBody for a body that is not JSON."""
    if request.content_type == "application/json":
        # byoa.wire.protocol's reader: it refuses what no database or hash downstream could take (a
        # lone UTF-16 surrogate, NaN), as it does for a wallet's frames.
        try:
            body = protocol.parse(request.body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, protocol.NotJSON):
            raise BadBody('Send a JSON object of text, e.g. {"session": "..."}.') from None
        if body is None:
            raise BadBody('Send a JSON object, e.g. {"session": "..."}.')
        value = body.get(name)
        return value if isinstance(value, str) and value else None
    return request.POST.get(name) or None


def _bad_body(exc: BadBody) -> JsonResponse:
    return JsonResponse({"error": "bad-request", "message": str(exc)}, status=400)


@never_cache
@require_GET
def wait(request: HttpRequest) -> JsonResponse:
    """Say whether a wallet has come with this session's code: waiting, connected or expired.

    Once connected, also which wallet: the name its hello gave (the wallet's own
    words, at most 100 characters; the page shows them as text), so that a visitor
    sees what a link someone else's page made them open has connected.
    """
    wait_id, visitor = request.GET.get("session"), visitor_ids.existing_visitor_id(request)
    state = codes.wait_state(wait_id, visitor)
    answer: WaitAnswer = {"state": state.value}
    if state is codes.WaitState.CONNECTED:
        pairing = codes.connected_pairing(wait_id, visitor)
        if pairing is not None:
            answer["wallet"] = str(pairing.wallet.get("name") or "")
            answer["active"] = pairing.status == Pairing.Status.ACTIVE
    return JsonResponse(answer)


@never_cache
@require_POST
def disconnect(request: HttpRequest) -> JsonResponse:
    """End the pairing this browser session's link opened: revoke it and close its connection.

    ``{"session": <wait id>}`` names the link, as ``/byoa/wait`` does; only the
    session that asked for its code can end it. Answers 404 for any other.
    """
    try:
        wait_id = _requested_field(request, "session")
    except BadBody as exc:
        return _bad_body(exc)
    pairing = codes.connected_pairing(wait_id, visitor_ids.existing_visitor_id(request))
    if pairing is None:
        return JsonResponse(
            {"error": "not-found", "message": "This browser has no link by that handle."}, status=404
        )
    # As the admin's revoke does: the status first, then the bye to the connection, in whichever process.
    stop_pairings(Pairing.objects.filter(pk=pairing.pk), Pairing.Status.REVOKED)
    return JsonResponse({"state": "disconnected"})
