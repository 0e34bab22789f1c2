"""
Twenty Questions over the BYOA direct link, in Chromium on a real daphne (DEBUG,
so that the link may name ws://127.0.0.1): the page opens the link, a headless
wallet (the direct_wallet fixture) connects, and each move streams from the
wallet through the server to the page as server-sent events.
"""

import asyncio

import pytest

from tests.twentyq.conftest import Player, ai_move_shown, answering, click_way, idle, open_game, state
from testwallet.direct import ScriptedBackend

pytestmark = [pytest.mark.browser, pytest.mark.live]


class GatedBackend(ScriptedBackend):
    """A wallet model that streams the pieces the test gives it, one piece per ``release()``."""

    def __init__(self, models=("m1",)):
        super().__init__({"text.generate": {"text": ""}}, models=models)
        self.script_pieces = {}  # model code -> list of pieces for its next call
        self.gates = asyncio.Queue()
        self.gated = False
        self.wallet = None
        self.drop_after = None

    async def stream(self, skill, input, params):
        self.calls.append((skill, input, params))
        pieces = self.script_pieces.get(params.get("model"), [""])
        for index, piece in enumerate(pieces):
            if self.drop_after is not None and index == self.drop_after:
                await self.wallet.drop()
                await asyncio.Event().wait()
            if self.gated:
                await self.gates.get()
            yield piece

    def release(self):
        self.gates.put_nowait(None)


async def link_wallet(page, direct_wallet, backend):
    """Click the link way, hand the link the page shows to a headless wallet, wait until it answers."""
    await click_way(page, "link")
    anchor = page.locator("#open-wallet:not([hidden])")
    await anchor.wait_for(timeout=10000)
    link = await anchor.get_attribute("href")
    assert link.startswith("bringyourownagent://connect?v=0.1&")
    wallet = await direct_wallet(link, backend)
    backend.wallet = wallet
    assert wallet.opened, wallet.activity
    return await answering(page, "link", timeout=10000)


# After the page opens a bringyourownagent:// link, headless Chromium drops mouse and keyboard
# input to the tab (it cannot show the "open this app?" question a visitor's browser shows and
# they dismiss), as tests/geography/test_voice_link.py found: so the tests dispatch clicks to
# the elements and set the question's value from a script.


async def press(page, selector):
    await page.locator(selector).dispatch_event("click")


async def type_into(page, selector, text):
    await page.locator(selector).evaluate("(input, text) => { input.value = text; }", text)


async def start_game(page, mode):
    old = await page.locator("#game").get_attribute("data-game-id")
    await press(page, "#new-ai-asks" if mode == "ai-asks" else "#new-site-thinks")
    selector = f"#game[data-mode='{mode}']" + (f":not([data-game-id='{old}'])" if old else "")
    await page.locator(selector).wait_for(timeout=10000)


async def answer_as(page, player):
    game = await state(page)
    pending = game["pending"]
    if pending["kind"] == "guess":
        await press(page, "#verdict-right" if player.is_it(pending["text"]) else "#verdict-wrong")
    else:
        await press(page, f"#answer-{player.answer(pending['text'])}")


@pytest.fixture
async def game_page(page, debug_server, console):
    await open_game(page, debug_server)
    return page


async def test_the_link_streams_the_questioners_chunks_to_the_page_in_order(
    game_page, direct_wallet, console
):
    backend = GatedBackend()
    backend.script_pieces["m1"] = ["QUESTION:", " Is it", " bigger than", " a car?"]
    assert await link_wallet(game_page, direct_wallet, backend) == "Answering: Your AI wallet app"
    assert await game_page.locator("#open-wallet").is_hidden()
    backend.gated = True
    await start_game(game_page, "ai-asks")
    shown = ""
    *pieces, _last = backend.script_pieces["m1"]
    for piece in pieces:
        backend.release()
        shown += piece
        await game_page.locator("#stream-text", has_text=shown).wait_for(timeout=10000)
        assert await game_page.locator("#stream-text").text_content() == shown
    backend.release()  # the last chunk, then the result: the question is shown once, in #pending
    await ai_move_shown(game_page, 0)
    assert await game_page.locator("#pending").text_content() == "Your AI asks: Is it bigger than a car?"
    assert await game_page.locator("#stream-text").text_content() == ""
    ((_skill, _input, params),) = backend.calls
    assert params["stream"] is True and params["model"] == "m1"
    assert console == []


async def test_the_link_plays_you_think_to_the_end_and_the_site_thinks_with_a_typed_question(
    game_page, direct_wallet, console
):
    backend = GatedBackend()
    await link_wallet(game_page, direct_wallet, backend)
    backend.script_pieces["m1"] = ["GUESS:", " a giraffe"]
    await start_game(game_page, "ai-asks")
    await ai_move_shown(game_page, 0)
    await answer_as(game_page, Player("giraffe"))
    await ai_move_shown(game_page, 1)
    game = await state(game_page)
    assert (game["status"], game["winner"]) == ("over", "ai")

    backend.script_pieces["m1"] = ["Some", "times"]
    await start_game(game_page, "site-thinks")
    await type_into(game_page, "#question", "Is it loud?")
    await press(game_page, "#ask-button")
    await game_page.locator("#history li").first.wait_for(timeout=10000)
    game = await idle(game_page)
    assert (game["history"][0]["answer"], game["history"][0]["answeredBy"]) == ("sometimes", "model")
    assert backend.calls[-1][2]["choices"] == ["yes", "no", "sometimes"]
    assert console == []


async def test_a_wallet_that_drops_mid_stream_leaves_the_text_so_far_and_the_site_plays_on(
    game_page, direct_wallet, console
):
    backend = GatedBackend()
    await link_wallet(game_page, direct_wallet, backend)
    backend.script_pieces["m1"] = ["QUESTION:", " Is it", " made of", " wood?"]
    backend.drop_after = 2
    await start_game(game_page, "ai-asks")
    await answering(game_page, "own", timeout=10000)
    assert (
        await game_page.locator("#way-notice").text_content()
        == "Your AI wallet app did not answer, so the site plays on its own."
    )
    await ai_move_shown(game_page, 0)
    assert await game_page.locator("#stream-text").text_content() == "QUESTION: Is it"
    assert await game_page.locator("#stream-text").get_attribute("data-state") == "cut"
    game = await state(game_page)
    assert game["pending"]["by"] == "site" and game["history"] == []
    assert await game_page.locator("#game-error").is_hidden()
    assert console == []


async def test_stop_ends_a_streamed_move_and_the_game_keeps_its_state(game_page, direct_wallet, console):
    backend = GatedBackend()
    await link_wallet(game_page, direct_wallet, backend)
    backend.script_pieces["m1"] = ["QUESTION:", " Is it", " blue?"]
    backend.gated = True
    await start_game(game_page, "ai-asks")
    backend.release()
    await game_page.locator("#stream-text", has_text="QUESTION:").wait_for(timeout=10000)
    await press(game_page, "#stop")
    game = await idle(game_page)
    assert game["pending"] is None and game["history"] == []
    assert await game_page.locator("#stream-text").get_attribute("data-state") == "stopped"
    assert await answering(game_page, "link")  # a Stop is the visitor's, not the wallet's "no"
    # The next move goes through the same wallet.
    backend.gated = False
    backend.script_pieces["m1"] = ["QUESTION: Is it blue?"]
    await press(game_page, "#ai-next")
    await ai_move_shown(game_page, 0)
    assert (await state(game_page))["pending"]["text"] == "Is it blue?"
    assert console == []


async def test_two_models_granted_over_the_link_check_each_answer(game_page, direct_wallet, console):
    backend = GatedBackend(models=("m1", "m2"))
    await link_wallet(game_page, direct_wallet, backend)
    backend.script_pieces = {"m1": ["yes"], "m2": ["no"]}
    await start_game(game_page, "site-thinks")
    await game_page.evaluate("""() => {
        const streamed = document.querySelector('#stream-text');
        window.streamedTexts = [];
        new MutationObserver(() => window.streamedTexts.push(streamed.textContent))
            .observe(streamed, { childList: true, characterData: true, subtree: true });
    }""")
    await type_into(game_page, "#question", "Is it alive?")
    await press(game_page, "#ask-button")
    await game_page.locator("#history li .check.disagree").wait_for(timeout=10000)
    assert await answering(game_page, "link") == "Answering: Your AI wallet app — m1 answers, m2 checks"
    assert sorted(params["model"] for _skill, _input, params in backend.calls) == ["m1", "m2"]
    streamed = await game_page.evaluate("() => window.streamedTexts")
    assert "yes" in streamed and not any(
        "no" in text for text in streamed
    )  # only the answering model streams here
    assert console == []


async def test_the_page_shows_which_wallet_connected_and_disconnects_it(game_page, direct_wallet, console):
    # A link may come from someone else's page: the visitor sees what connected and can end it.
    backend = GatedBackend()
    await link_wallet(game_page, direct_wallet, backend)
    shown = game_page.locator("#linked-wallet")
    await shown.locator(".linked-wallet-name", has_text=backend.wallet.identity["name"]).wait_for(
        timeout=5000
    )
    await press(game_page, "#linked-wallet .linked-wallet-disconnect")
    await shown.get_by_text("Disconnected:").wait_for(timeout=5000)
    await asyncio.wait_for(backend.wallet.closed.wait(), 10)  # the site said bye and closed its connection
