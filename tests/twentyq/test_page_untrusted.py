"""
What the model says and what the page posts are both untrusted: garbage from
the model (not a choice, HTML, 10,000 characters, nothing) is explained and
never used, and a visitor who posts extra questions or answers or a forged win
from the page changes nothing. The game state stays intact in every case.
"""

import pytest

from tests.twentyq.conftest import ai_move_shown, idle, new_game, open_game, post_json, state, use_way

pytestmark = [pytest.mark.browser, pytest.mark.live]

HTML = '<img src="x" onerror="document.title=\'pwned\'">yes'
GARBAGE = [
    (
        "Well, it depends on how you look at it",
        "model-not-a-choice",
        "The AI did not answer with one of yes, no, sometimes",
    ),
    (HTML, "model-markup", "The AI's reply contained HTML, so it was not used."),
    ("yes " * 2500, "model-too-long", "The AI's reply was 10,000 characters long; a move is one short line."),
    ("", "model-empty", "The AI gave no answer. Try again, or play on without it."),
]


@pytest.fixture
async def game_page(page, daphne_server, byoa_extension, console):
    await byoa_extension.install(page)
    await open_game(page, daphne_server)
    return page


@pytest.mark.parametrize(
    ("garbage", "code", "message"), GARBAGE, ids=["not-a-choice", "html", "10000-chars", "empty"]
)
async def test_garbage_answers_about_the_secret_are_explained_and_the_game_is_unchanged(
    game_page, byoa_extension, console, garbage, code, message
):
    byoa_extension.reply("text.generate", {"text": garbage}, {"text": "no"})
    await use_way(game_page, "extension")
    await new_game(game_page, "site-thinks")
    before = await state(game_page)
    await game_page.locator("#question").fill("Is it alive?")
    await game_page.locator("#ask-button").click()
    error = game_page.locator("#game-error")
    await error.wait_for(timeout=10000)
    await idle(game_page)
    assert await error.get_attribute("data-code") == code
    assert (await error.text_content()).startswith(message)
    after = await state(game_page)
    assert (after["history"], after["turnsUsed"]) == (before["history"], before["turnsUsed"])
    # Streamed or not, model text is text: no element was made from it.
    assert (
        await game_page.locator("#game img:not(.character, .reveal__art)").count() == 0
    )  # the site's own only
    assert await game_page.title() != "pwned"
    assert await game_page.locator("#question").input_value() == "Is it alive?"  # the visitor can try again
    await game_page.locator("#ask-button").click()
    await game_page.locator("#history li").first.wait_for(timeout=10000)
    assert (await state(game_page))["history"][0]["answer"] == "no"
    assert await error.is_hidden()
    assert console == [] or all("422" in problem for problem in console)


@pytest.mark.parametrize(
    ("garbage", "code"),
    [
        ("I think it might be a cat, or a dog!", "model-not-a-move"),
        (f"QUESTION: {HTML}", "model-markup"),
        ("QUESTION: " + "is it " * 2000, "model-too-long"),
        ("   ", "model-empty"),
    ],
    ids=["not-a-move", "html", "10000-chars", "blank"],
)
async def test_garbage_questions_are_explained_and_the_visitor_can_let_the_site_ask(
    game_page, byoa_extension, console, garbage, code
):
    byoa_extension.reply("text.generate", {"text": garbage})
    await use_way(game_page, "extension")
    await new_game(game_page, "ai-asks")
    error = game_page.locator("#game-error")
    await error.wait_for(timeout=10000)
    await idle(game_page)
    assert await error.get_attribute("data-code") == code
    game = await state(game_page)
    assert (game["pending"], game["history"], game["turnsUsed"]) == (None, [], 0)
    assert await game_page.locator("#pending").text_content() == ""
    assert (
        await game_page.locator("#game img:not(.character, .reveal__art)").count() == 0
    )  # the site's own only
    assert await game_page.locator("#ai-next").is_visible()
    await game_page.locator("#own-next-button").click()
    await ai_move_shown(game_page, 0)
    assert (await state(game_page))["pending"]["by"] == "site"
    assert console == [] or all("422" in problem for problem in console)


async def test_extra_answers_a_stale_turn_and_a_forged_verdict_change_nothing(page, daphne_server, console):
    await open_game(page, daphne_server)
    await new_game(page, "ai-asks")
    await ai_move_shown(page, 0)
    game = await state(page)
    turn = game["pending"]["turn"]
    attempts = [
        ("/twentyq/api/answer", {"turn": turn + 1, "answer": "yes"}, 409, "stale-turn"),
        ("/twentyq/api/answer", {"turn": turn, "answer": "maybe"}, 400, "bad-answer"),
        ("/twentyq/api/verdict", {"turn": turn, "correct": True}, 409, None),  # a win claimed for a question
        ("/twentyq/api/own", {}, 409, "answer-first"),
        (
            "/twentyq/api/reply",
            {
                "promptId": "forged",
                "turn": turn,
                "way": "extension",
                "replies": [{"model": "m1", "text": "GUESS: giraffe"}],
            },
            409,
            None,
        ),
        ("/twentyq/api/guess", {"guess": "giraffe"}, 409, "wrong-mode"),
    ]
    for path, body, status, code in attempts:
        got, answer = await post_json(page, path, body)
        assert got == status, (path, body, answer)
        if code:
            assert answer["error"] == code, (path, answer)
        assert answer["game"] == game, path
    assert await state(page) == game
    # One real answer is taken, and only once.
    await page.locator("#answer-yes").click()
    await ai_move_shown(page, 1)
    got, answer = await post_json(page, "/twentyq/api/answer", {"turn": turn, "answer": "no"})
    assert got == 409
    assert (await state(page))["history"][0]["answer"] == "yes"
    assert console == [] or all("409" in problem or "400" in problem for problem in console)


async def test_a_forged_win_in_the_site_thinks_mode_is_judged_by_the_server(page, daphne_server, console):
    await open_game(page, daphne_server)
    await new_game(page, "site-thinks")
    game = await state(page)
    for path, body in [
        ("/twentyq/api/guess", {"guess": "", "correct": True, "winner": "visitor"}),
        ("/twentyq/api/verdict", {"turn": 1, "correct": True}),
        ("/twentyq/api/answer", {"turn": 1, "answer": "yes"}),
        (
            "/twentyq/api/reply",
            {"promptId": "x", "turn": 1, "way": "aiwallet", "replies": [{"model": None, "text": "yes"}]},
        ),
        ("/twentyq/api/new", {"mode": "site-thinks", "secret": "giraffe"}),
    ]:
        got, answer = await post_json(page, path, body)
        if path.endswith("/new"):
            continue  # a new game is allowed; the secret it carries is not
        assert got in (400, 409), (path, answer)
        assert answer["game"]["history"] == game["history"], path
    game = await state(page)
    assert game["status"] == "playing" and game["secret"] is None and game["winner"] is None
    got, answer = await post_json(page, "/twentyq/api/guess", {"guess": "giraffe", "correct": True})
    assert got == 200
    assert answer["correct"] is (answer["game"]["status"] == "over")  # only when the secret is a giraffe
    assert answer["game"]["history"][-1]["answer"] in ("right", "wrong")
