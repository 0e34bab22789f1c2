"""
One consent for both ways in: the extension's window.byoa (in Chromium) and the headless
direct-link wallet share what the visitor allowed each site and which sites they paused
(``byoa_extension.consents``), and a site that asks for more gets a consent showing only that.
"""

import copy

import pytest

from byoa.pairing import manifests
from tests.testwallet.byoa_cases import GEO
from tests.testwallet.direct.test_wallet import FakeSite
from tests.testwallet.test_byoa_stub import (
    PAGE,
    ask_at_load,
    audio,
    bounded,
    call,
    request_on_click,
    wav_base64,
)
from testwallet.direct import Consent, DirectWallet, ScriptedBackend

pytestmark = [pytest.mark.browser, pytest.mark.live]

WIDER = copy.deepcopy(GEO)
WIDER["purpose"]["limits"]["maxCallsPerMinute"] = GEO["purpose"]["limits"]["maxCallsPerMinute"] * 2


def linked_wallet(byoa_extension, **options):
    backend = ScriptedBackend({"audio.transcribe": {"text": "Peru"}})
    return DirectWallet(backend, dev_local=True, consents=byoa_extension.consents, **options)


async def open_page(page, byoa_extension, site):
    """Open a page at the origin the site's wallet route belongs to (http://127.0.0.1:<port>)."""
    origin = "http://" + site.endpoint.split("/")[2]
    await byoa_extension.install(page)
    await page.route(origin + "/**", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    return origin


async def test_a_site_allowed_by_link_with_decide_on_my_own_is_granted_on_the_page_with_no_window(
    page, byoa_extension
):
    """byoa-sites.md: "a site allowed one way is allowed the other way too"."""
    async with FakeSite(manifest=manifests.encode(GEO)[1]) as site:
        wallet = linked_wallet(byoa_extension, consent=Consent.DECIDE_ON_MY_OWN)
        assert await wallet.open(site.link())
        origin = await open_page(page, byoa_extension, site)
        byoa_extension.decline()  # a window would be declined: none is shown
        await ask_at_load(page, GEO)  # no click
        await page.goto(origin + "/")
        grant = await bounded(page.evaluate("window.__atLoad"))
        assert grant is not None and grant["skills"] == ["audio.transcribe"]
        (record,) = byoa_extension.requests
        assert (record.activated, record.on_its_own, record.more) == (False, True, [])
        await wallet.close()


async def test_a_site_allowed_on_the_page_gets_a_link_consent_showing_only_what_it_asks_for_more(
    page, byoa_extension
):
    """byoa-sites.md: "a site that asks for more later gets a new consent showing only the difference"."""
    async with FakeSite(manifest=manifests.encode(GEO)[1]) as site:
        origin = await open_page(page, byoa_extension, site)
        await page.goto(origin + "/")
        assert await request_on_click(page, GEO) is not None
        wallet = linked_wallet(byoa_extension)
        assert await wallet.open(site.link())
        site.manifest = manifests.encode(WIDER)[1]
        assert await wallet.open(site.link(code="B" * 32))
        limit = GEO["purpose"]["limits"]["maxCallsPerMinute"]
        assert [window["more"] for window in wallet.consent_windows] == [
            [],
            [f"maxCallsPerMinute {limit * 2} (allowed {limit})"],
        ]
        await wallet.close()


async def test_a_new_consent_on_the_page_shows_only_what_the_site_asks_for_more(page, byoa_extension):
    """byoa-sites.md: "a site that asks for more later gets a new consent showing only the difference"."""
    async with FakeSite() as site:
        origin = await open_page(page, byoa_extension, site)
        await page.goto(origin + "/")
        assert await request_on_click(page, GEO) is not None
        assert await request_on_click(page, WIDER) is not None
        limit = GEO["purpose"]["limits"]["maxCallsPerMinute"]
        assert [record.more for record in byoa_extension.requests] == [
            None,
            [f"maxCallsPerMinute {limit * 2} (allowed {limit})"],
        ]


async def test_a_site_paused_by_the_link_wallet_gets_failed_calls_and_null_on_the_page_until_resumed(
    page, byoa_extension
):
    """byoa-sites.md: "A site the visitor paused is not reconnected" (one pause, for both ways in)."""
    async with FakeSite(manifest=manifests.encode(GEO)[1]) as site:
        origin = await open_page(page, byoa_extension, site)
        await page.goto(origin + "/")
        grant = await request_on_click(page, GEO)
        clip = audio(wav_base64(1))
        assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True
        wallet = linked_wallet(byoa_extension)
        assert await wallet.open(site.link())
        await wallet.pause()
        assert await call(page, grant, "audio.transcribe", clip) == {"ok": False}
        assert await request_on_click(page, GEO) is None
        wallet.resume()
        assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True
        byoa_extension.pause(origin)
        assert await call(page, grant, "audio.transcribe", clip) == {"ok": False}
        byoa_extension.resume(origin)
        assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True
        await wallet.close()
