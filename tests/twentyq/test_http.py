"""The JSON endpoints on a real daphne: the contract the page relies on, and what a forger cannot do."""

import re

import pytest

pytestmark = pytest.mark.live


async def test_the_page_carries_its_config_and_no_inline_script(player):
    html = (await player.open()).text
    config = re.search(r'<script id="twentyq-config" type="application/json">(.*?)</script>', html, re.S)
    assert config is not None
    scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)
    assert scripts == []
    for element in (
        "manifest-plain",
        "ways",
        "way-status",
        "new-game",
        "game",
        "history",
        "pending",
        "stream-text",
        "stop",
        "game-error",
    ):
        assert f'id="{element}"' in html, element
    assert "2 models from different companies" in html
    response = await player.http.get("/twentyq/")
    assert "script-src 'self'" in response.headers["content-security-policy"]


async def test_an_error_has_one_shape_and_the_game_it_left_unchanged(player):
    status, answer = await player.post("answer", {"turn": 1, "answer": "yes"})
    assert (status, answer) == (409, {"error": "no-game", "message": answer["message"], "game": None})
    game = await player.ok("new", {"mode": "ai-asks", "next": "own"})
    status, answer = await player.post("answer", {"turn": 1, "answer": "perhaps"})
    assert status == 400 and answer["error"] == "bad-answer" and answer["game"] == game


async def test_a_body_that_is_not_a_json_object_is_refused(player):
    for body in (b"[1, 2]", b"{not json", b'"yes"'):
        response = await player.http.post(
            "/twentyq/api/new", content=body, headers={**player.headers, "content-type": "application/json"}
        )
        assert response.status_code == 400 and response.json()["error"] == "bad-request"


async def test_a_json_body_with_a_lone_surrogate_is_refused_with_400_and_the_game_is_unchanged(player):
    game = await player.ok("new", {"mode": "site-thinks"})
    # "\ud800" alone: JSON syntax, but no Unicode text; the question and the replies would go into
    # the game, and from it into the wallet's calls.
    for name, body in (
        ("new", b'{"mode": "\\ud800"}'),
        ("prompt", b'{"question": "Is it \\ud800 big?"}'),
        ("reply", b'{"way": "builtin", "turn": 1, "replies": [{"model": null, "text": "\\udfff"}]}'),
    ):
        response = await player.http.post(
            f"/twentyq/api/{name}",
            content=body,
            headers={**player.headers, "content-type": "application/json"},
        )
        assert response.status_code == 400, (name, response.text)
        assert response.json() == {
            "error": "bad-request",
            "message": "Send a JSON object of text.",
            "game": game,
        }
    assert (await player.http.get("/twentyq/api/state")).json()["game"] == game


async def test_own_mode_ai_asks_is_played_to_a_right_guess(player):
    from sites.twentyq.catalog import load

    penguin = load().thing("penguin")
    game = await player.ok("new", {"mode": "ai-asks", "next": "own"})
    while game["status"] == "playing":
        pending = game["pending"]
        if pending["kind"] == "guess":
            game = await player.ok(
                "verdict", {"turn": pending["turn"], "correct": "penguin" in pending["text"], "next": "own"}
            )
        else:
            truth = penguin.attributes[pending["attribute"]]
            game = await player.ok(
                "answer", {"turn": pending["turn"], "answer": "yes" if truth else "no", "next": "own"}
            )
    assert game["winner"] == "ai" and game["turnsUsed"] <= 20


async def test_a_visitor_cannot_answer_twice_skip_ahead_or_post_a_history(player):
    await player.ok("new", {"mode": "ai-asks", "next": "own"})
    await player.ok("answer", {"turn": 1, "answer": "no"})
    for body in (
        {"turn": 1, "answer": "yes"},
        {"turn": 2, "answer": "yes"},
        {"turn": 1, "answer": "yes", "history": [{"turn": 1, "text": "Is it a cat?", "answer": "yes"}]},
    ):
        status, answer = await player.post("answer", body)
        assert status == 409 and answer["error"] == "no-pending"
    state = (await player.http.get("/twentyq/api/state")).json()["game"]
    assert [entry["answer"] for entry in state["history"]] == ["no"] and state["pending"] is None


async def test_a_forged_win_is_not_possible(player):
    await player.ok("new", {"mode": "site-thinks"})
    status, answer = await player.post("verdict", {"turn": 1, "correct": True})
    assert status == 409 and answer["error"] == "wrong-mode"
    status, answer = await player.post("guess", {"guess": "anything", "correct": True, "winner": "visitor"})
    assert status == 200 and answer["correct"] is False and answer["game"]["winner"] is None
    status, answer = await player.post("new", {"mode": "site-thinks", "secret": "cat"})
    assert answer["game"]["secret"] is None
    status, answer = await player.post("guess", {"guess": "cat"})
    # The secret was drawn by the server; "cat" wins only when it really is the cat.
    assert answer["correct"] is (answer["game"]["secret"] == {"name": "cat"})


async def test_in_page_move_prompt_then_raw_reply(player):
    await player.ok("new", {"mode": "site-thinks"})
    status, asked = await player.post("prompt", {"question": "Is it alive?"})
    assert status == 200 and asked["prompt"]["params"] == {
        "maxTokens": 5,
        "choices": ["yes", "no", "sometimes"],
    }
    assert asked["game"]["pending"] == {
        "turn": 1,
        "kind": "question",
        "text": "Is it alive?",
        "by": "visitor",
    }
    reply = {"promptId": asked["promptId"], "turn": asked["turn"], "way": "extension"}
    status, answer = await player.post(
        "reply", {**reply, "replies": [{"model": "m1", "text": "<img src=x onerror=alert(1)>"}]}
    )
    assert status == 422 and answer["error"] == "model-markup" and answer["game"] == asked["game"]
    status, answer = await player.post(
        "reply", {**reply, "replies": [{"model": "m1", "text": "No."}, {"model": "m2", "text": "yes"}]}
    )
    assert status == 200
    entry = answer["game"]["history"][0]
    assert (entry["answer"], entry["way"], entry["check"]["agrees"]) == ("no", "extension", False)
    status, answer = await player.post("reply", {**reply, "replies": [{"model": "m1", "text": "yes"}]})
    assert status == 409 and answer["error"] == "no-pending"


@pytest.mark.parametrize(
    "replies",
    [
        [],
        [{"model": "m3", "text": "yes"}],
        [{"model": "m1", "text": 5}],
        [{"model": "m1", "text": "a"}] * 3,
        [{"model": "m1", "text": "yes"}, {"model": "m1", "text": "no"}],
        "yes",
    ],
)
async def test_malformed_replies_are_refused(player, replies):
    await player.ok("new", {"mode": "site-thinks"})
    _, asked = await player.post("prompt", {"question": "Is it alive?"})
    status, answer = await player.post(
        "reply", {"promptId": asked["promptId"], "turn": 1, "way": "builtin", "replies": replies}
    )
    assert status == 400 and answer["error"] == "bad-replies"


async def test_a_stream_without_a_linked_wallet_answers_not_linked_as_json(player):
    await player.ok("new", {"mode": "ai-asks"})
    status, answer = await player.post("stream")
    assert status == 409 and answer["error"] == "not-linked"


async def test_a_form_post_without_a_script_is_redirected_back_to_the_page(player):
    token = player.http.cookies["csrftoken"]
    response = await player.http.post(
        "/twentyq/api/new", data={"mode": "ai-asks", "next": "own", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 303 and response.headers["location"] == "/twentyq/"
    response = await player.http.post(
        "/twentyq/api/answer", data={"turn": "1", "answer": "maybe", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 303
    page = (await player.http.get("/twentyq/")).text
    assert "Answer with yes, no, sometimes or unknown." in page


async def test_a_post_without_the_csrf_token_is_refused(player):
    response = await player.http.post("/twentyq/api/new", json={"mode": "ai-asks"})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "mode, shown, hidden",
    [
        ("ai-asks", "answer-form", "own-question-form"),
        ("site-thinks", "own-question-form", "answer-form"),
    ],
)
async def test_every_form_is_on_the_page_in_either_mode_so_the_script_can_switch(player, mode, shown, hidden):
    await player.ok("new", {"mode": mode, "next": "own"})
    html = (await player.open()).text
    for form in (
        "answer-form",
        "verdict-form",
        "own-next",
        "question-form",
        "own-question-form",
        "guess-form",
    ):
        assert f'id="{form}"' in html, form
    tag = lambda form: re.search(rf'<form id="{form}"[^>]*>', html).group(0)  # noqa: E731
    assert " hidden" not in tag(shown) and " hidden" in tag(hidden)
