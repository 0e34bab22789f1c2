"""
Fixtures of the Twenty Questions page tests: the page with its console errors
recorded, a DEBUG daphne for the direct link, and the few steps every test takes
on the page. The built-in model's stand-in is the test wallet's ``builtin_model``.
"""

import pytest

from tests.testwallet.panel import press


@pytest.fixture
async def console(page):
    """Record the errors the page logs (and uncaught exceptions) in a list.

    Async, as the page is: `page.on` starts a task on the session's loop, which a sync fixture
    finds only while no earlier test of the worker has closed the current loop (asyncio.run)."""
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


@pytest.fixture
async def no_builtin_model(page, builtin_model):
    """A browser with no built-in model of its own: its ``LanguageModel`` says 'unavailable', as
    Chromium's does on a machine that cannot run one. Which one a browser build reports by itself
    varies (Debian's full Chromium without a GPU: 'unavailable'; its headless shell, the test
    wallet's default: 'downloadable'), so the tests of the ways offered without it say so."""
    builtin_model.availability = "unavailable"
    await builtin_model.install(page)
    return builtin_model


async def open_game(page, server):
    """Open the game page and wait until the chooser has detected the ways."""
    await page.goto(server.url + "/twentyq/")
    # Attached, not visible: the ways are folded behind "Change".
    await page.locator("#ways[data-ready='true'] button[data-way='own']").wait_for(
        state="attached", timeout=15000
    )


async def way_ids(page):
    """Return the ids of the ways the page offers, in its order."""
    return await page.locator("#ways button.way").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.way)"
    )


async def answering(page, way, timeout=5000):
    """Wait until the page says `way` answers; return the status line."""
    await page.locator(f"#way-status[data-way='{way}']").wait_for(timeout=timeout)
    return (await page.locator("#way-status").text_content()).strip()


async def click_way(page, way):
    """Click the way's button, opening the ways with "Change" first (they are folded into the status)."""
    change = page.locator("#change-way")
    if await change.is_visible() and await change.get_attribute("aria-expanded") != "true":
        await change.click()
    await page.locator(f"#ways button[data-way='{way}']").click()


# The button each stand-in's panel asks the visitor to press: AI Wallet's approval, the extension's consent.
CONSENT = {"aiwallet": "Approve", "extension": "Allow"}


async def open_by_hand(page, server, way="aiwallet"):
    """Open the game with the stand-ins on and answer through the ``way`` stand-in (consented in its panel).

    The page's errors and any native dialog are kept in ``page.problems``.
    """
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.on("dialog", lambda dialog: page.problems.append(f"a native {dialog.type} dialog"))
    await page.goto(server.url + "/twentyq/?testwallet=1")
    await page.locator(f"#ways[data-ready='true'] button[data-way='{way}']").wait_for(
        state="attached", timeout=15000
    )
    await click_way(page, way)
    await press(page, CONSENT[way])
    return await answering(page, way, timeout=10000)


async def use_way(page, way):
    """Click the way's button and wait until the page says it answers."""
    await click_way(page, way)
    return await answering(page, way, timeout=10000)


async def new_game(page, mode):
    """Start a new game in `mode` ('ai-asks' or 'site-thinks') and wait until it shows."""
    await idle(page)  # a move still being played keeps the buttons busy: a click then does nothing
    old = await page.locator("#game").get_attribute("data-game-id")
    await page.locator("#new-ai-asks" if mode == "ai-asks" else "#new-site-thinks").click()
    selector = (
        f"#game[data-mode='{mode}']:not([data-game-id='{old}'])" if old else f"#game[data-mode='{mode}']"
    )
    await page.locator(selector).wait_for(timeout=15000)


async def idle(page, timeout=10000):
    """Wait until no move is in flight (Stop hidden) and return the game's state from the server."""
    await page.locator("#stop").wait_for(state="hidden", timeout=timeout)
    return await state(page)


async def state(page):
    """Return the session's game as the server keeps it."""
    answer = await page.evaluate("() => fetch('/twentyq/api/state').then((r) => r.json())")
    return answer["game"]


async def pending_text(page, timeout=10000):
    """Wait for the AI's pending question or guess on the page; return its text."""
    locator = page.locator("#pending")
    await page.wait_for_function(
        "() => document.querySelector('#pending').textContent.trim() !== ''", timeout=timeout
    )
    return (await locator.text_content()).strip()


async def post_json(page, path, body):
    """POST `body` from the page as its script would (with the CSRF token); return (status, json)."""
    return await page.evaluate(
        """async ([path, body]) => {
            const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken='))?.split('=')[1];
            const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json',
                'X-CSRFToken': token}, body: JSON.stringify(body)});
            return [r.status, await r.json()];
        }""",
        [path, body],
    )


class Player:
    """A visitor who thinks of `thing` and answers the attribute questions of the catalog truly."""

    def __init__(self, name):
        from sites.twentyq import catalog

        self.catalog = catalog.load()
        self.thing = self.catalog.thing(name)
        self._answers = {attribute.question: attribute.key for attribute in self.catalog.attributes}

    def answer(self, question):
        """Return 'yes' / 'no' for a catalog question, 'unknown' for any other."""
        key = self._answers.get(question)
        if key is None:
            return "unknown"
        return "yes" if self.thing.attributes[key] else "no"

    def is_it(self, guess):
        """Return whether a guess names the thing."""
        return self.catalog.find(guess) is self.thing


async def answer_pending(page, player):
    """Answer the AI's pending move on the page as `player` would; return (kind, text)."""
    game = await state(page)
    pending = game["pending"]
    if pending["kind"] == "guess":
        await page.locator("#verdict-right" if player.is_it(pending["text"]) else "#verdict-wrong").click()
    else:
        await page.locator(f"#answer-{player.answer(pending['text'])}").click()
    return pending["kind"], pending["text"]


async def ai_move_shown(page, entries, timeout=10000):
    """Wait until the game shows `entries` history entries and the AI's next move (or the end)."""
    await page.wait_for_function(
        """(entries) => {
            const game = document.querySelector('#game');
            if (game.dataset.status === 'over') return true;
            const shown = (id) => !document.getElementById(id).hidden;
            return document.querySelectorAll('#history li').length >= entries
                && document.querySelector('#stop').hidden && (shown('answer-form') || shown('verdict-form'));
        }""",
        arg=entries,
        timeout=timeout,
    )


@pytest.fixture(scope="session")
def debug_server(tmp_path_factory):
    """The project under daphne with DEBUG on, as a developer runs it: links may point at ws://127.0.0.1
    (byoa.E003 allows loopback only with DEBUG) and ``?testwallet=1`` works; wallet calls end after 2 s."""
    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.twentyq.daphne_settings",
        env={"DJANGO_DEBUG": "1"},
        workdir=tmp_path_factory.mktemp("twentyq-debug-daphne"),
    )
    with server:
        yield server
