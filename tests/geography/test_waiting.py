"""
While the game waits for the visitor's wallet (its consent and models, a link, a clip's
transcript), the page says so and what for, and the visitor can stop waiting and type
(specs/byoa-sites.md: "Show that you are waiting"). The test wallet holds its answers.
"""

import asyncio

import pytest

from tests.geography.conftest import MICROPHONE, right_answer, speak
from testwallet.extension import Consent

pytestmark = [pytest.mark.browser, pytest.mark.live, MICROPHONE]


async def type_answer(page, text):
    await page.get_by_label("Your answer").fill(text)
    await page.get_by_role("button", name="Answer", exact=True).click()


async def test_a_consent_left_open_shows_the_wait_and_the_visitor_can_stop_waiting_and_type(
    page, daphne_server, byoa_extension
):
    await byoa_extension.install(page)
    byoa_extension.consent = Consent.WAIT  # the wallet's window stays open: request() does not answer
    await page.goto(daphne_server.url + "/geography/")
    await page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    waiting = page.locator("#waiting")
    await waiting.wait_for(timeout=5000)
    assert "your wallet asks you first, then loads its models" in await waiting.text_content()
    assert await waiting.get_attribute("role") == "status"
    await page.get_by_role("button", name="Stop waiting and type my answer").click()
    await waiting.wait_for(state="hidden", timeout=5000)
    assert await page.locator("#mode").get_attribute("data-mode") == "own"
    assert "You stopped waiting" in await page.locator("#notice").text_content()
    assert await page.evaluate("() => document.activeElement.id") == "answer"
    await type_answer(page, await right_answer(page))
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=5000)
    assert len(byoa_extension.requests) == 1


async def test_a_link_nobody_answers_shows_the_wait_and_stopping_ends_the_polls(page, dev_server):
    await page.route("bringyourownagent:**", lambda route: route.abort())
    polls = []
    page.on("request", lambda request: "/byoa/wait" in request.url and polls.append(request.url))
    await page.clock.install()  # the polls' timers run only when the test moves the clock
    await page.goto(dev_server.url + "/geography/")
    await page.get_by_role("button", name="Answer by voice with my AI wallet app").click()
    waiting = page.locator("#waiting")
    await waiting.wait_for(timeout=5000)
    assert "Waiting for your wallet app to connect" in await waiting.text_content()
    await page.locator("#open-wallet").wait_for(timeout=5000)
    async with page.expect_request("**/byoa/wait?**"):
        await page.clock.run_for(1500)
    # The click as an event: with the page's clock faked, a loaded machine's Chromium was seen to
    # drop Playwright's input on it (no click event reached the document, nor a key press).
    await page.get_by_role("button", name="Stop waiting and type my answer").dispatch_event("click")
    await page.locator("#link-state", has_text="You stopped waiting for your wallet.").wait_for(timeout=5000)
    assert await page.locator("#open-wallet").is_hidden()
    assert await page.locator("#mode").get_attribute("data-mode") == "own"
    seen = len(polls)
    await page.clock.run_for(5000)  # five poll periods: a wait that really ended sends no more
    async with page.expect_request("**/favicon.svg"):  # a later request: any poll would come before it
        await page.evaluate("() => fetch('/static/home/favicon.svg', { cache: 'no-store' })")
    assert len(polls) == seen >= 1


async def test_a_slow_transcript_is_waited_for_visibly_and_then_judged(
    mic_page, daphne_server, byoa_extension
):
    answered = asyncio.Event()
    country = {}

    async def slowly(_call):
        await answered.wait()
        return {"text": country["name"]}

    await byoa_extension.install(mic_page)
    byoa_extension.allow()
    byoa_extension.answer_with("audio.transcribe", slowly)
    await mic_page.goto(daphne_server.url + "/geography/")
    country["name"] = await right_answer(mic_page)
    await mic_page.get_by_role("button", name="Answer by voice with my AI in this browser").click()
    await mic_page.locator('#mode[data-mode="extension"]').wait_for(timeout=5000)
    await speak(mic_page, "13 s left")
    waiting = mic_page.locator("#waiting")
    await waiting.wait_for(timeout=10000)
    assert "Your AI is listening to your answer" in await waiting.text_content()
    answered.set()
    await mic_page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=10000)
    assert await waiting.is_hidden()
