"""
The project's URLs plus what only the end-to-end tests need: a CSRF cookie and a caller.

Their answers say which process made them (``X-Test-Process``: its pid), and a
call's whether the wallet's connection was in that process
(``X-Test-Wallet``: ``local``, ``other``, ``away`` (connected nowhere) or
``none`` (no pairing)): the deployment tests
and the soak see sticky routing from the processes' side, not from nginx's.
A call's outcome is in ``X-Test-Outcome``: ``output``, or the name of the
``WalletCallError`` it raised (its body then says ``"output": null``).
"""

import json
import os

from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from byoa import WalletCallError, aget_pairing, call_wallet, stream_wallet
from byoa.delivery import events


def answer(body, wallet=None, outcome=None):
    """Return a JSON response that names this process (and where the wallet's connection was)."""
    response = JsonResponse(body)
    response["X-Test-Process"] = str(os.getpid())
    if wallet is not None:
        response["X-Test-Wallet"] = wallet
    if outcome is not None:
        response["X-Test-Outcome"] = outcome
    return response


def page(request):
    """Stand in for a demo page: give the browser its CSRF cookie."""
    get_token(request)
    return answer({})


@csrf_exempt
async def call(request):
    """Call the wallet of this browser session, as a demo page's view would."""
    body = json.loads(request.body)
    pairing = await aget_pairing(request, body.get("site", "geo"))
    if pairing is None:
        return answer({"output": None, "paired": False}, "none", "NoPairing")
    # Before the call: a connection that drops mid-call was still where the call went.
    if events.wallet_connections.get(pairing.pk) is not None:
        wallet = "local"
    else:
        wallet = "other" if pairing.channel_name else "away"  # a channel: connected to another process
    args = (pairing, body["skill"], body["input"], body.get("params"))
    deltas = []
    try:
        if body.get("stream"):
            stream = stream_wallet(*args, timeout=body.get("timeout", 5))
            async for delta in stream:
                deltas.append(delta)
            output = stream.output
        else:
            output = await call_wallet(*args, timeout=body.get("timeout", 5))
    except WalletCallError as exc:
        output, outcome = None, type(exc).__name__
    else:
        outcome = "output"
    return answer({"output": output, **({"deltas": deltas} if body.get("stream") else {})}, wallet, outcome)


async def is_live(request):
    """Say whether this browser session's pairing has a live connection, as a call would find it.

    A live one's answer also says which pairing, and whether this process holds its connection
    (else its channel came from the database): what a test that waits for it to go reports when
    it does not go.
    """
    pairing = await aget_pairing(request, request.GET.get("site", "geo"), connected=True)
    if pairing is None:
        return answer({"live": False})
    local = events.wallet_connections.get(pairing.pk) is not None
    return answer({"live": True, "pairing": pairing.pk, "local": local})


urlpatterns = [
    path("_test/page", page),
    path("_test/call", call),
    path("_test/live", is_live),
    path("", include("sites.config.urls")),
]
