"""
Moves over the direct link on a real daphne: the server calls the visitor's
headless wallet with params.stream and relays its chunks as server-sent
events; a dropped wallet, a timeout and a Stop each end the stream cleanly.
"""

import asyncio
import time

import pytest

from tests.twentyq.player import read_events
from testwallet.direct import ScriptedBackend

pytestmark = pytest.mark.live


class StreamingBackend(ScriptedBackend):
    """A wallet's model whose pieces are given by the test: ``pieces(input, params)`` yields them."""

    def __init__(self, pieces, models=("m1",)):
        super().__init__({"text.generate": {"text": ""}}, models=models)
        self.pieces = pieces

    async def stream(self, skill, input, params):
        self.calls.append((skill, input, params))
        async for piece in self.pieces(input, params):
            yield piece


def scripted(*pieces):
    async def pieces_of(input, params):
        for piece in pieces:
            yield piece

    return pieces_of


async def test_a_questioner_move_streams_its_chunks_in_order_and_becomes_the_pending_question(
    player, direct_wallet
):
    backend = StreamingBackend(scripted("QUESTION:", " Is it", " bigger than", " a car?"))
    await player.link(direct_wallet, backend)
    await player.ok("new", {"mode": "ai-asks"})
    events = await player.events()
    assert events[0] == ("start", {"turn": 1, "models": ["m1"]})
    assert [data["text"] for name, data in events if name == "delta"] == [
        "QUESTION:",
        " Is it",
        " bigger than",
        " a car?",
    ]
    name, data = events[-1]
    assert name == "result"
    assert data["game"]["pending"] == {
        "turn": 1,
        "kind": "question",
        "text": "Is it bigger than a car?",
        "by": "model",
        "way": "link",
        "model": "m1",
    }
    ((_skill, input, params),) = backend.calls
    assert params["stream"] is True and params["model"] == "m1" and params["maxTokens"] == 60
    assert input["messages"][0]["role"] == "system"
    game = await player.ok("answer", {"turn": 1, "answer": "yes"})
    assert game["history"][0]["answer"] == "yes"


async def test_two_granted_models_answer_and_check_and_a_disagreement_is_recorded(player, direct_wallet):
    async def by_model(input, params):
        yield "Yes." if params["model"] == "m1" else "no"

    backend = StreamingBackend(by_model, models=("m1", "m2"))
    await player.link(direct_wallet, backend)
    await player.ok("new", {"mode": "site-thinks"})
    events = await player.events({"question": "Is it bigger than a car?"})
    assert events[0] == ("start", {"turn": 1, "models": ["m1", "m2"]})
    assert ("reply", {"model": "m2", "answer": "no", "problem": None}) in events
    entry = events[-1][1]["game"]["history"][0]
    assert (entry["answer"], entry["model"], entry["check"]) == (
        "yes",
        "m1",
        {"model": "m2", "answer": "no", "agrees": False},
    )
    assert [params["model"] for _skill, _input, params in backend.calls] == ["m1", "m2"]
    assert all(params["choices"] == ["yes", "no", "sometimes"] for _s, _i, params in backend.calls)


async def test_with_one_granted_model_only_that_model_is_ever_asked(player, direct_wallet):
    backend = StreamingBackend(scripted("sometimes"), models=("m1", "m2"))
    await player.link(direct_wallet, backend, models=["m1"])
    await player.ok("new", {"mode": "site-thinks"})
    for question in ("Is it alive?", "Is it red?"):
        events = await player.events({"question": question})
        assert events[0][1]["models"] == ["m1"] and events[-1][0] == "result"
    assert [params.get("model") for _skill, _input, params in backend.calls] == ["m1", "m1"]
    assert [entry["check"] for entry in events[-1][1]["game"]["history"]] == [None, None]


@pytest.mark.parametrize(
    "pieces, code",
    [
        (("<b>QUESTION: Is it big?</b>",), "model-markup"),
        (("I am not sure",), "model-not-a-move"),
        (("x" * 1000, "x" * 1000, "x" * 1000), "model-too-long"),
        (("",), "model-empty"),
    ],
)
async def test_garbage_over_the_link_is_explained_and_records_nothing(player, direct_wallet, pieces, code):
    await player.link(direct_wallet, StreamingBackend(scripted(*pieces)))
    before = await player.ok("new", {"mode": "ai-asks"})
    events = await player.events()
    name, data = events[-1]
    assert name == "error" and data["error"] == code and data["message"]
    assert data["game"]["history"] == before["history"] == [] and data["game"]["pending"] is None


async def test_a_wallet_dropping_mid_stream_ends_the_stream_with_an_error_at_once(
    player, direct_wallet, twentyq_server
):
    started, forever = asyncio.Event(), asyncio.Event()
    logged = "twentyq: model m1 gave no move: WalletLeft"
    before = twentyq_server.output().count(logged)

    async def then_hang(input, params):
        yield "QUESTION: Is"
        started.set()
        await forever.wait()

    wallet = await player.link(direct_wallet, StreamingBackend(then_hang))
    await player.ok("new", {"mode": "ai-asks"})
    async with player.stream() as response:
        events = read_events(response)
        assert (await anext(events))[0] == "start"
        assert await anext(events) == ("delta", {"model": "m1", "text": "QUESTION: Is"})
        await asyncio.wait_for(started.wait(), 5)
        dropped = time.monotonic()
        await wallet.drop()
        name, data = await asyncio.wait_for(anext(events), 5)
        assert time.monotonic() - dropped < 1.5  # long before the 2 s call bound
        assert name == "error" and data["error"] == "wallet-no-answer" and data["game"]["pending"] is None
        assert [event async for event in events] == []  # and the stream is over
    # The server's log says which, once (written as the stream ends: waited for, with a bound).
    assert twentyq_server.wait_for_output(logged, count=before + 1, timeout=5)
    assert twentyq_server.output().count(logged) == before + 1


async def test_a_wallet_that_never_answers_times_out_and_the_stream_ends(
    player, direct_wallet, twentyq_server
):
    logged = "twentyq: model m1 gave no move: WalletTimeout"
    before = twentyq_server.output().count(logged)

    async def silent(input, params):
        await asyncio.Event().wait()
        yield ""

    await player.link(direct_wallet, StreamingBackend(silent))
    await player.ok("new", {"mode": "site-thinks"})
    started = time.monotonic()
    events = await asyncio.wait_for(player.events({"question": "Is it alive?"}), 10)
    assert time.monotonic() - started > 1.5  # it waited for the 2 s call bound of daphne_settings.py
    assert events[-1][0] == "error" and events[-1][1]["error"] == "wallet-no-answer"
    assert events[-1][1]["game"]["history"] == []
    assert twentyq_server.wait_for_output(logged, count=before + 1, timeout=5)
    assert twentyq_server.output().count(logged) == before + 1


async def test_stop_from_the_page_ends_the_move_records_nothing_and_frees_the_wallet(player, direct_wallet):
    first, release = asyncio.Event(), asyncio.Event()

    async def slow(input, params):
        if first.is_set():  # the move after the Stop answers at once
            yield "QUESTION: Is it alive?"
            return
        first.set()
        yield "QUESTION: Is"
        await release.wait()
        yield " it alive?"

    backend = StreamingBackend(slow)
    # One call at a time: had the stopped call kept its slot, the next move would be refused.
    wallet = await player.link(direct_wallet, backend, limits={"maxParallelCalls": 1})
    await player.ok("new", {"mode": "ai-asks"})
    async with player.stream() as response:
        events = read_events(response)
        await anext(events)
        assert (await anext(events))[0] == "delta"
    # The response is closed: the page's Stop. The wallet finishes the answer nobody waits for.
    release.set()
    async with asyncio.timeout(5):
        # DirectWallet only counts the calls it answered, with no event to wait on: poll, within the bound.
        while wallet.answered < 1:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
    state = (await player.http.get("/twentyq/api/state")).json()
    assert state["game"]["pending"] is None and state["game"]["history"] == [] and state["linked"]
    events = await asyncio.wait_for(player.events(), 5)
    assert events[-1][0] == "result" and events[-1][1]["game"]["pending"]["text"] == "Is it alive?"


async def test_the_game_link_is_for_this_browser_session_only(player, direct_wallet, twentyq_server):
    from tests.twentyq.player import Player

    await player.link(direct_wallet, StreamingBackend(scripted("yes")))
    stranger = Player(twentyq_server)
    await stranger.open()
    try:
        await stranger.ok("new", {"mode": "site-thinks"})
        status, answer = await stranger.post("stream", {"question": "Is it alive?"})
        assert status == 409 and answer["error"] == "not-linked"
        assert (await stranger.http.get("/twentyq/api/state")).json()["linked"] is False
    finally:
        await stranger.close()
