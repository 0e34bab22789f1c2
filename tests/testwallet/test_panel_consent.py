"""
The stand-in's own consent panel, as a person browsing with it sees it: a site it already allowed
that asks for more gets a consent showing only what is new, in a visitor's words and labelled as
a stand-in that is not an AI; allowing it makes the new request work, declining keeps the old grant.
"""

import asyncio
import copy

import pytest

from tests.testwallet.byoa_cases import GEO
from tests.testwallet.test_byoa_stub import ask, audio, bounded, call, request_on_click, wav_base64
from testwallet.extension import script_paths

pytestmark = [pytest.mark.browser, pytest.mark.live]

#: GEO and more: a text skill besides, and twice the calls a minute.
WIDER = copy.deepcopy(GEO)
WIDER["skills"]["text.generate"] = {"required": False}
WIDER["purpose"]["limits"]["maxCallsPerMinute"] = 80


async def stand_in_alone(page, daphne_server):
    """Open a page with the stand-in and no test behind it, as a person browsing by hand has it."""
    for path in script_paths():
        await page.add_init_script(path=str(path))
    await page.goto(daphne_server.url + "/")
    return page.get_by_role("dialog", name="Test wallet")


async def answer_panel(page, manifest, button):
    """Click the page's button that asks for `manifest`, press `button` in the panel; return (grant, words)."""
    asking = asyncio.ensure_future(request_on_click(page, manifest))
    panel = page.get_by_role("dialog", name="Test wallet")
    await panel.wait_for(timeout=5000)
    words = await panel.text_content() or ""
    await panel.get_by_role("button", name=button, exact=True).click()
    return await bounded(asking), words


async def test_a_site_that_asks_for_more_gets_a_panel_showing_only_the_difference_and_then_its_request_works(
    page, daphne_server
):
    """byoa-sites.md: "a site that asks for more later gets a new consent showing only the difference"."""
    await stand_in_alone(page, daphne_server)
    first, asked = await answer_panel(page, GEO, "Allow")
    assert first["skills"] == ["audio.transcribe"]
    assert "ask your AI to listen to what you say and write it down?" in asked
    grant, more = await answer_panel(page, WIDER, "Allow")

    assert "The BYOA extension stand-in (not an AI)." in more and "not part of this site" in more
    assert "Only what it asks for more:" in more
    assert "• ask your AI to answer in text" in more
    assert "• up to 80 uses a minute (you allowed 40)" in more
    assert "listen to what you say and write it down" not in more  # allowed already: not shown again
    assert "audio.transcribe" not in more and "text.generate" not in more  # a visitor's words, no skill id
    assert grant["skills"] == ["audio.transcribe", "text.generate"]
    answer = await call(page, grant, "text.generate", ask("Which country has Lima?"))
    assert answer["ok"] is True and answer["output"]["text"] == "(test wallet) Which country has Lima?"


async def test_declining_what_a_site_asks_for_more_keeps_the_grant_it_had(page, daphne_server):
    """byoa-sites.md: "a site that asks for more later gets a new consent showing only the difference"."""
    panel = await stand_in_alone(page, daphne_server)
    grant, _ = await answer_panel(page, GEO, "Allow")
    declined, more = await answer_panel(page, WIDER, "Decline")

    assert declined is None
    assert "• ask your AI to answer in text" in more
    calling = asyncio.ensure_future(call(page, grant, "audio.transcribe", audio(wav_base64(0.5))))
    await panel.get_by_role("textbox", name="Type what you said").fill("Peru")
    await page.keyboard.press("Enter")
    assert (await calling)["output"] == {"text": "Peru"}  # the old grant still works
    # Still what was allowed, not the declined manifest: asking for more again shows the same difference.
    again, words = await answer_panel(page, WIDER, "Decline")
    assert again is None and "• up to 80 uses a minute (you allowed 40)" in words


async def test_a_site_asking_again_for_what_was_allowed_is_told_it_asks_nothing_more(page, daphne_server):
    await stand_in_alone(page, daphne_server)
    await answer_panel(page, WIDER, "Allow")
    grant, words = await answer_panel(page, GEO, "Allow")
    assert "It asks for nothing more than you allowed it." in words
    assert "•" not in words
    assert grant["skills"] == ["audio.transcribe"]
