"""
Answering by voice through the direct link, in Chromium on a real daphne: the
page opens a link, a headless wallet (testwallet.direct) takes it, and each clip goes
page -> server -> the visitor's wallet -> transcript -> the server's verdict.
"""

import asyncio
import base64
import io
import wave

import pytest

from tests.geography.conftest import MICROPHONE, right_answer
from testwallet.direct import ScriptedBackend

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]

# After the page opens a bringyourownagent:// link, headless Chromium drops
# mouse input to the tab: it cannot show the "open this app?" question that a
# visitor's browser shows and they dismiss. So clicks after the link are
# dispatched to the element (still with the user activation a click gives).


async def click(page, role, name):
    await page.get_by_role(role, name=name).dispatch_event("click")


@pytest.fixture
async def game(mic_page, dev_server):
    await mic_page.goto(dev_server.url + "/geography/")
    return mic_page


async def shown_link(page):
    """Click "without the extension" and return the link the page shows."""
    await page.get_by_role("button", name="Answer by voice with my AI wallet app").click()
    link = page.get_by_role("link", name="Open the agent wallet")
    await link.wait_for(timeout=5000)
    assert await page.locator("#countdown").text_content() in {
        f"(the link works for {left} s more)" for left in (90, 89)
    }
    return await link.get_attribute("href")


async def speak(page):
    await click(page, "button", "Speak your answer")
    await page.locator("#clip-countdown", has_text="14 s left").wait_for(timeout=10000)
    await click(page, "button", "Stop")


async def test_a_clip_goes_through_the_server_to_the_paired_wallet_and_comes_back_judged(game, direct_wallet):
    answer = await right_answer(game)
    heard = []

    def transcribe(input, params):
        heard.append((base64.b64decode(input["audio"]["base64"]), params))
        return {"text": answer}

    link = await shown_link(game)
    assert link.startswith("bringyourownagent://connect?v=0.1&")
    wallet = await direct_wallet(link, ScriptedBackend({"audio.transcribe": transcribe}))
    assert wallet.opened, wallet.activity
    await game.locator("#link-state", has_text="Connected.").wait_for(timeout=5000)
    assert (
        await game.locator("#mode").text_content()
        == "Answering by voice with your AI, through your wallet app"
    )

    await speak(game)
    await game.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)
    assert await game.locator("#transcript").text_content() == answer
    assert await game.locator("#score").text_content() == "1"
    clip, params = heard[0]
    with wave.open(io.BytesIO(clip)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (16000, 1, 2)
        seconds = wav.getnframes() / 16000
    assert float(await game.locator("#clip-info").get_attribute("data-seconds")) == pytest.approx(
        seconds, abs=1e-4
    )
    assert params == {"language": "en"}
    assert game.console_problems == []


async def test_the_wallet_hears_the_language_the_visitor_chose(game, direct_wallet):
    await game.get_by_label("I answer in").select_option("sk")
    await game.locator("#question", has_text="krajin").wait_for(timeout=5000)
    answer = await right_answer(game, "sk")
    wallet = await direct_wallet(await shown_link(game), {"audio.transcribe": {"text": answer}})
    await game.locator("#link-state", has_text="Connected.").wait_for(timeout=5000)
    await speak(game)
    await game.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)
    assert wallet.backend.calls[0][2] == {"language": "sk"}


@pytest.mark.parametrize("wallet_comes", [False, True], ids=["never comes", "declines"])
async def test_a_wallet_that_declines_or_never_comes_leaves_the_visitor_in_own_mode(
    mic_page, dev_server, direct_wallet, wallet_comes
):
    page = mic_page
    await page.clock.install()
    await page.goto(dev_server.url + "/geography/")
    link = await shown_link(page)
    if wallet_comes:
        wallet = await direct_wallet(link, {"audio.transcribe": {"text": "Peru"}}, consent="decline")
        assert not wallet.opened
    await page.clock.fast_forward(91_000)
    await page.locator("#link-state", has_text="Your wallet did not connect.").wait_for(timeout=5000)
    assert await page.locator("#mode").get_attribute("data-mode") == "own"
    assert await page.locator("#open-wallet").is_hidden()
    await page.get_by_label("Your answer").fill(await right_answer(page))
    await page.get_by_role("button", name="Answer", exact=True).dispatch_event("click")
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=5000)


async def test_a_wallet_that_fails_a_call_sends_the_visitor_to_own_mode(game, direct_wallet):
    def refuse(input, params):
        raise RuntimeError("no model loaded")

    await direct_wallet(await shown_link(game), ScriptedBackend({"audio.transcribe": refuse}))
    await game.locator("#link-state", has_text="Connected.").wait_for(timeout=5000)
    await speak(game)
    await game.locator(
        "#notice", has_text="Your AI did not answer this time. Type your answer instead."
    ).wait_for(timeout=10000)
    assert await game.locator("#mode").get_attribute("data-mode") == "own"
    assert await game.locator("#round").text_content() == "1"


async def test_the_page_shows_which_wallet_connected_and_disconnects_it(game, direct_wallet):
    # A link may come from someone else's page: the visitor sees what connected and can end it.
    link = await shown_link(game)
    wallet = await direct_wallet(link, {"audio.transcribe": {"text": "Peru"}}, name="<b>Grandma's wallet</b>")
    assert wallet.opened, wallet.activity
    shown = game.locator("#linked-wallet")
    await shown.locator(".linked-wallet-name", has_text="<b>Grandma's wallet</b>").wait_for(timeout=5000)
    assert await shown.locator("b").count() == 0  # the wallet's name is text, never markup
    await click(game, "button", "Disconnect it")
    await shown.get_by_text("Disconnected:").wait_for(timeout=5000)
    await asyncio.wait_for(wallet.closed.wait(), 10)  # the site said bye and closed its connection
    assert await game.locator("#mode").get_attribute("data-mode") == "own"
    assert game.console_problems == []
