"""
Property tests (hypothesis): whatever a client sends, before or after its
hello (any valid JSON included: a frame whose type is a list, an array as the
whole frame, a hello or a result with fields of the wrong types), the consumer
never crashes and answers nothing but a bad-session; and however several
visitors' calls and several wallets' answers interleave, each caller gets its
own result, exactly once.
"""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from byoa.calls import call_wallet
from byoa.consumers import WalletConsumer
from byoa.exceptions import WalletLeft
from byoa.models import Pairing
from byoa.pairing import tokens
from tests.byoa.conftest import hello, new_code

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    # Hypothesis runs many examples inside one test: the code limits are not under test here.
    settings.BYOA = {**settings.BYOA, "CODES_PER_ADDRESS": 10**6, "CODES_PER_SESSION": 10**6}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
not_strings = json_values.filter(lambda value: not isinstance(value, str))
frame_types = (
    st.sampled_from(["hello", "result", "chunk", "grant", "ping", "bye", "call", "welcome", "error"])
    | st.text(max_size=10)
    | not_strings  # {"type": ["call"]}, {"type": {}}, {"type": 1} ...
)
object_frames = st.fixed_dictionaries(
    {"type": frame_types},
    optional={
        "id": json_values,
        "session": json_values,
        "pairing": json_values,
        "grant": json_values,
        "ok": json_values,
        "v": json_values,
    },
)
timestamps = st.sampled_from(
    [
        "2099-01-01T00:00:00Z",
        "2099-01-01T00:00:00",
        "2099-13-01T00:00:00Z",
        "0001-01-01T00:00:00+01:00",
        "tomorrow",
        "",
    ]
)
grants = json_values | st.fixed_dictionaries(
    {},
    optional={
        "skills": json_values
        | st.lists(st.sampled_from(["audio.transcribe", "text.generate"]) | json_values, max_size=3),
        "expiresAt": timestamps | json_values,
        "limits": json_values
        | st.dictionaries(st.sampled_from(["maxParallelCalls", "maxCallSeconds", "x"]), json_values),
        "models": json_values | st.lists(st.sampled_from(["m1", "m2"]) | json_values, max_size=3),
    },
)
hello_frames = st.fixed_dictionaries(
    {"type": st.just("hello")},
    optional={
        "v": json_values,
        "session": json_values,
        "pairing": json_values,
        "wallet": json_values,
        "grant": grants,
    },
)
answer_frames = st.fixed_dictionaries(
    {"type": st.sampled_from(["result", "chunk"])},
    optional={
        "id": st.integers(0, 3) | json_values,
        "ok": json_values,
        "output": json_values,
        "receipt": json_values,
        "delta": json_values,
    },
)
grant_frames = st.fixed_dictionaries({"type": st.just("grant")}, optional={"grant": grants})
frames = st.one_of(
    object_frames.map(lambda f: ("text", json.dumps(f))),
    hello_frames.map(lambda f: ("text", json.dumps(f))),
    answer_frames.map(lambda f: ("text", json.dumps(f))),
    grant_frames.map(lambda f: ("text", json.dumps(f))),
    json_values.map(lambda v: ("text", json.dumps(v))),  # arrays, strings, numbers, null as the whole frame
    st.text(max_size=50).map(lambda t: ("text", t)),
    st.binary(max_size=50).map(lambda b: ("bytes", b)),
)
#: Frames that once crashed the consumer after a hello (close 1011): always tried.
CRASHERS = [("text", '{"type":["call"]}'), ("text", '{"type":{}}'), ("text", '{"type":1}'), ("text", "[1]")]


async def outputs(communicator):
    """Return everything the consumer sent until it went quiet."""
    sent = []
    while not await communicator.receive_nothing(timeout=0.02):
        sent.append(await communicator.receive_output())
    return sent


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(frames, max_size=8))
@example(CRASHERS)
async def test_random_frames_never_crash_the_consumer_or_get_an_answer_before_a_valid_hello(sequence):
    communicator = WebsocketCommunicator(WalletConsumer.as_asgi(), "/byoa/ws")
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    for kind, payload in sequence:
        # send_input, not send_to: a real client may send an empty frame too.
        await communicator.send_input({"type": "websocket.receive", kind: payload})
    sent = await outputs(communicator)  # re-raises if the consumer crashed
    frames_sent = [json.loads(m["text"]) for m in sent if m["type"] == "websocket.send"]
    assert all(frame == {"type": "error", "code": "bad-session"} for frame in frames_sent)
    closes = [m for m in sent if m["type"] == "websocket.close"]
    assert len(closes) <= 1 and all(m["code"] in (4007, 4008) for m in closes)
    if frames_sent:
        assert closes and closes[0]["code"] == 4008
    await communicator.disconnect(timeout=5)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(frames, max_size=8))
@example(CRASHERS)
async def test_random_frames_after_a_hello_never_crash_the_consumer_or_get_an_answer(sequence):
    communicator, _pairing = await open_wallet(visitor="visitor-random")
    for kind, payload in sequence:
        await communicator.send_input({"type": "websocket.receive", kind: payload})
    sent = await outputs(communicator)  # re-raises if the consumer crashed
    assert [m for m in sent if m["type"] == "websocket.send"] == []  # the server speaks only to call
    closes = [m for m in sent if m["type"] == "websocket.close"]
    # 1000 after a bye frame, 4007 for a frame that is not JSON, 4008 for a flood of unknown results.
    assert len(closes) <= 1 and all(m.get("code", 1000) in (1000, 4007, 4008) for m in closes)
    await communicator.disconnect(timeout=5)


async def open_wallet(visitor):
    code, _wait = await new_code(visitor=visitor)
    communicator = WebsocketCommunicator(WalletConsumer.as_asgi(), "/byoa/ws")
    await communicator.connect(timeout=5)
    await communicator.send_json_to(hello(session=code))
    welcome = await communicator.receive_json_from(timeout=5)
    pairing = await database_sync_to_async(Pairing.objects.get)(
        token_digest=tokens.digest(welcome["pairing"])
    )
    return communicator, pairing


@st.composite
def interleavings(draw):
    """Wallets with 1-4 calls each, the order the calls start in, the order answers come in, and drops."""
    counts = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    calls = [(w, c) for w, count in enumerate(counts) for c in range(count)]
    starts = draw(st.permutations(calls))
    answers = draw(st.permutations(calls))
    dropped = draw(st.sets(st.sampled_from(range(len(counts))), max_size=len(counts) - 1))
    return counts, starts, answers, dropped


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(interleavings())
async def test_interleaved_calls_of_several_visitors_each_get_their_own_result_exactly_once(plan):
    counts, starts, answers, dropped = plan
    wallets = [await open_wallet(visitor=f"visitor-{w}") for w in range(len(counts))]
    callers = {}
    for w, c in starts:
        callers[(w, c)] = asyncio.ensure_future(
            call_wallet(wallets[w][1], "audio.transcribe", {"mine": f"{w}:{c}"}, timeout=10)
        )
    # Each wallet receives exactly its own callers' calls.
    received = {}
    for w, (communicator, _pairing) in enumerate(wallets):
        frames = [await communicator.receive_json_from(timeout=5) for _ in range(counts[w])]
        assert sorted(f["input"]["mine"] for f in frames) == sorted(f"{w}:{c}" for c in range(counts[w]))
        received.update({(w, int(f["input"]["mine"].split(":")[1])): f["id"] for f in frames})
        assert await communicator.receive_nothing(timeout=0.01)
    for w in dropped:
        await wallets[w][0].disconnect(code=1006)
    for w, c in answers:
        if w not in dropped:
            await wallets[w][0].send_json_to(
                {"type": "result", "id": received[(w, c)], "ok": True, "output": {"echo": f"{w}:{c}"}}
            )
    outcomes = await asyncio.wait_for(asyncio.gather(*callers.values(), return_exceptions=True), 10)
    for (w, c), outcome in zip(callers, outcomes, strict=True):
        if w in dropped:
            assert type(outcome) is WalletLeft
        else:
            assert outcome == {"echo": f"{w}:{c}"}
    for w, (communicator, _pairing) in enumerate(wallets):
        if w not in dropped:
            assert await communicator.receive_nothing(timeout=0.01)  # nothing extra, nothing twice
            await communicator.disconnect(timeout=5)
