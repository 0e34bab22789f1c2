"""The end-to-end tests' URLs plus what the fault tests ask each process: which wallets it holds."""

from django.http import JsonResponse
from django.urls import path

from byoa.delivery import events
from tests.byoa.server_urls import urlpatterns as server_urlpatterns


async def held(request):
    """Say how many pairings have their live connection in this very process."""
    return JsonResponse({"held": len(events.wallet_connections)})


urlpatterns = [path("_test/held", held), *server_urlpatterns]
