"""The server keeps its calls to a visitor's wallet within the manifest's calls per minute."""

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore

from sites.twentyq import pace
from testwallet.direct import ScriptedBackend


async def test_calls_within_the_minute_are_counted_and_the_next_one_waits():
    session = SessionStore()
    assert await pace.take(session, 2, 5, now=100) == 0
    assert await pace.take(session, 2, 5, now=110) == 0
    assert await pace.take(session, 2, 5, now=120) == 41  # the calls of t=100 leave the window at 160
    assert await pace.take(session, 1, 5, now=120) == 0
    assert await pace.take(session, 2, 5, now=161) == 0


@pytest.mark.live
async def test_a_visitor_asking_faster_than_the_manifest_allows_is_told_to_wait(player, direct_wallet):
    await player.link(direct_wallet, ScriptedBackend({"text.generate": {"text": "no"}}, models=("m1", "m2")))
    await player.ok("new", {"mode": "site-thinks"})
    for number in range(15):  # 2 models a question: the manifest's 30 calls a minute
        events = await player.events({"question": f"Is it number {number}?"})
        assert events[-1][0] == "result", events[-1]
    response = await player.http.post(
        "/twentyq/api/stream", json={"question": "One more?"}, headers=player.headers
    )
    status, answer = response.status_code, response.json()
    assert status == 429 and answer["error"] == "slow-down" and "try again in" in answer["message"]
    assert 1 <= int(response.headers["retry-after"]) <= 61
    assert len(answer["game"]["history"]) == 15 and answer["game"]["pending"] is None
