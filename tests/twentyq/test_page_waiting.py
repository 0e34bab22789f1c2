"""
While Twenty Questions waits for the visitor's AI (a way connecting, a move being answered),
the page says so and what for, and the visitor can stop waiting and play with the site
(specs/byoa-sites.md: "Show that you are waiting"). The test wallet holds its answers.
"""

import asyncio

import pytest

from tests.twentyq.conftest import ai_move_shown, answering, click_way, new_game, open_game, use_way
from testwallet.extension import Consent

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_a_consent_left_open_shows_the_wait_and_stopping_hands_the_game_to_the_site(
    page, daphne_server, byoa_extension, console
):
    await byoa_extension.install(page)
    byoa_extension.consent = Consent.WAIT  # the wallet's window stays open: request() does not answer
    await open_game(page, daphne_server)
    await click_way(page, "extension")
    waiting = page.locator("#way-connecting")
    await waiting.wait_for(timeout=5000)
    assert await page.locator("#way-connecting-text").text_content() == (
        "Waiting for your AI in this browser: your wallet asks you first, then loads its models…"
    )
    assert await page.locator("#ways button[data-way='extension']").is_disabled()
    await page.get_by_role("button", name="Stop waiting: play without AI").click()
    await waiting.wait_for(state="hidden", timeout=5000)
    assert await answering(page, "own")
    assert await page.locator("#way-notice").text_content() == (
        "You stopped waiting for your AI in this browser, so the site plays on its own."
    )
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    assert (await page.locator("#pending").text_content()).startswith("The site asks: ")
    assert console == []


async def test_a_slow_answer_is_waited_for_visibly_and_the_question_then_shown_once(
    page, daphne_server, byoa_extension, console
):
    released = asyncio.Event()

    async def slowly(_call):
        await released.wait()
        return {"text": "QUESTION: Is it alive?"}

    await byoa_extension.install(page)
    byoa_extension.answer_with("text.generate", slowly)
    await open_game(page, daphne_server)
    await use_way(page, "extension")
    await new_game(page, "ai-asks")
    waiting = page.locator("#move-waiting")
    await waiting.wait_for(timeout=5000)
    assert (
        await waiting.text_content()
    ).strip() == "Waiting for your AI in this browser to answer… (Stop, and the site plays)"
    assert await page.locator("#stop").is_visible()
    released.set()
    await ai_move_shown(page, 0)
    assert await waiting.is_hidden()
    shown = await page.locator("#game").inner_text()
    assert shown.count("Is it alive?") == 1  # once, as "Your AI asks: Is it alive?"
    assert await page.locator("#pending").text_content() == "Your AI asks: Is it alive?"
    assert console == []
