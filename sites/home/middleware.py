"""The by-hand test wallet switch, as middleware so that it works in sync and async views alike."""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings

SESSION_KEY = "testwallet"


class TestWalletMiddleware:
    """
    In DEBUG only: `?testwallet=1` injects the in-page test wallets
    (frontend/testwallet/) into the demo pages for someone browsing without an
    extension; `?testwallet=0` removes them. The choice sticks for the session.
    Sets `request.testwallet`, which the base template reads.
    """

    sync_capable = False
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    async def __call__(self, request):
        request.testwallet = False
        if settings.DEBUG:
            asked = request.GET.get("testwallet")
            if asked in {"0", "1"}:
                await request.session.aset(SESSION_KEY, asked == "1")
            request.testwallet = await request.session.aget(SESSION_KEY, False)
        return await self.get_response(request)
