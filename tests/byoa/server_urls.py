"""The project's URLs plus what only the end-to-end tests need: a CSRF cookie and a caller."""

import json

from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from byoa import aget_pairing, call_wallet, stream_wallet


def page(request):
    """Stand in for a demo page: give the browser its CSRF cookie."""
    get_token(request)
    return JsonResponse({})


@csrf_exempt
async def call(request):
    """Call the wallet of this browser session, as a demo page's view would."""
    body = json.loads(request.body)
    pairing = await aget_pairing(request, body.get("site", "geo"))
    if pairing is None:
        return JsonResponse({"output": None, "paired": False})
    args = (pairing, body["skill"], body["input"], body.get("params"))
    if body.get("stream"):
        stream = stream_wallet(*args, timeout=body.get("timeout", 5))
        deltas = [delta async for delta in stream]
        return JsonResponse({"output": stream.output, "deltas": deltas})
    return JsonResponse({"output": await call_wallet(*args, timeout=body.get("timeout", 5))})


async def is_live(request):
    """Say whether this browser session's pairing has a live connection, as a call would find it."""
    pairing = await aget_pairing(request, request.GET.get("site", "geo"), connected=True)
    return JsonResponse({"live": pairing is not None})


urlpatterns = [
    path("_test/page", page),
    path("_test/call", call),
    path("_test/live", is_live),
    path("", include("sites.config.urls")),
]
