"""
While AI Wallet asks the visitor (its consent window left open), the bookshop says it is
waiting and for what, and the shop works without it meanwhile (specs/byoa-sites.md:
"Show that you are waiting"; the visitor's own way is the search, always on the page).
"""

import pytest

from testwallet.aiwallet import Consent

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_a_consent_left_open_shows_the_wait_while_the_visitor_searches_the_shop(
    aiwallet, page, daphne_server
):
    aiwallet.consent = Consent.WAIT
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    await page.locator('ai-connect-widget[data-state="disconnected"]').wait_for(timeout=5000)
    await page.get_by_role("button", name="Connect your AI").click()
    widget = page.locator('ai-connect-widget[data-state="connecting"]')
    await widget.wait_for(timeout=5000)
    assert (await widget.text_content()).strip() == (
        "Waiting for you in AI Wallet… This page works without it meanwhile."
    )
    assert await widget.get_attribute("aria-live") == "polite"
    await page.get_by_label("Words").fill("Dune")
    await page.get_by_role("button", name="Search").click()
    await page.locator("#search-results .title", has_text="Dune").first.wait_for(timeout=5000)
