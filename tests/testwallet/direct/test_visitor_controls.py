"""
The visitor's side of the headless wallet a site must be able to test: a grant changed as a
``grant`` frame, the visitor's pause and resume, a new consent showing only what a site asks
for more, and at most 4 links handled at once. Each test names the spec sentence it follows.
"""

import asyncio
import json

import pytest

from byoa.pairing import manifests
from byoa.wire import protocol
from tests.testwallet.direct.test_wallet import GEO, QUIZ, Clock, FakeSite, _limit, _quiz, _until, wallet
from tests.testwallet.test_call_checks import AUDIO, MANIFEST, TEXT, chat, clip
from testwallet.direct import Consent, DirectWallet, ScriptedBackend, State

TOKEN = "token-" + "t" * 40
BOTH = manifests.encode(MANIFEST)[1]


def both_skills(**options):
    backend = ScriptedBackend({AUDIO: {"text": "Peru"}, TEXT: {"text": "yes"}}, models=["m1"])
    return DirectWallet(backend, dev_local=True, **options)


async def test_a_grant_change_is_sent_as_a_grant_frame_in_the_hellos_grant_shape():
    """byoa-sites.md: "a grant frame tells a change"."""
    async with FakeSite(manifest=BOTH) as site:
        visitor = both_skills()
        assert await visitor.open(site.link())
        assert site.hellos[0]["grant"]["skills"] == [AUDIO, TEXT]
        changed = await visitor.change_grant(skills=[TEXT], limits={"maxCallsPerMinute": 10})
        await asyncio.wait_for(_until(site.received, lambda: bool(site.frames)), 5)
        assert site.frames == [{"type": "grant", "grant": changed}]
        assert changed["skills"] == [TEXT] and changed["limits"]["maxCallsPerMinute"] == 10
        assert changed["expiresAt"] == site.hellos[0]["grant"]["expiresAt"]
        # What the visitor ticks now is what a later consent compares with.
        assert visitor.consents.more("http://" + site.endpoint.split("/")[2], MANIFEST) == [
            f"the skill {AUDIO}"
        ]
        await visitor.close()


async def test_a_call_of_a_skill_the_grant_change_took_away_gets_ok_false():
    """byoa-sites.md: "a grant frame tells a change" (and the wallet keeps to the changed grant)."""
    async with FakeSite(manifest=BOTH) as site:
        visitor = both_skills()
        changed = asyncio.Event()

        async def script(ws):
            site.hellos.append(json.loads(await ws.recv()))
            await ws.send(json.dumps(protocol.welcome(TOKEN, BOTH)))
            await changed.wait()
            await ws.send(json.dumps(protocol.call(1, AUDIO, clip(1), {})))
            await ws.send(json.dumps(protocol.call(2, TEXT, chat("Peru?"), {})))
            async for message in ws:
                got = json.loads(message)
                site.frames.append(got)
                if got["type"] == "result":
                    await site.calls.put(got)

        site.script = script
        assert await visitor.open(site.link())
        await visitor.change_grant(skills=[TEXT])
        changed.set()
        results = sorted(
            [await asyncio.wait_for(site.calls.get(), 5) for _ in range(2)], key=lambda r: r["id"]
        )
        assert [r["ok"] for r in results] == [False, True]
        assert site.frames[0]["type"] == "grant"
        await visitor.close()


def test_a_grant_change_outside_what_the_manifest_asked_is_refused_naming_the_choices():
    async def change():
        async with FakeSite() as site:
            visitor = wallet()
            assert await visitor.open(site.link())
            try:
                with pytest.raises(ValueError, match=r"choose one or more of audio\.transcribe"):
                    await visitor.change_grant(skills=[TEXT])
                with pytest.raises(ValueError, match="choose one or more"):
                    await visitor.change_grant(skills=[])
            finally:
                await visitor.close()

    asyncio.run(change())
    with pytest.raises(RuntimeError, match="open"):
        asyncio.run(wallet().change_grant(skills=[AUDIO]))


async def test_a_paused_site_is_not_reconnected_until_the_visitor_resumes_it():
    """byoa-sites.md: "A site the visitor paused is not reconnected"."""
    clock = Clock()
    async with FakeSite() as site:
        visitor = wallet(consent=Consent.DECIDE_ON_MY_OWN, sleep=clock.sleep, ping_seconds=10**6)
        assert await visitor.open(site.link())
        await visitor.pause()
        await asyncio.wait_for(_until(site.received, lambda: {"type": "bye"} in site.frames), 5)
        assert visitor.state is State.PAUSED
        assert site.connections == 1 and visitor.pairing == TOKEN
        assert [d for d in clock.delays if d != 10**6] == []  # no reconnect scheduled while paused
        visitor.welcomed.clear()
        visitor.resume()
        await asyncio.wait_for(visitor.welcomed.wait(), 5)
        assert site.connections == 2
        assert (site.hellos[-1]["session"], site.hellos[-1]["pairing"]) == (None, TOKEN)
        assert visitor.state is State.CONNECTED
        await visitor.close()


async def test_a_site_paused_after_a_plain_allow_needs_a_new_link():
    """byoa-sites.md: the wallet keeps the pairing "only when the visitor ticked 'decide on my own'"."""
    async with FakeSite() as site:
        visitor = wallet()
        assert await visitor.open(site.link())
        await visitor.pause()
        assert visitor.state is State.CLOSED
        visitor.resume()
        assert visitor.activity[-1].endswith("no pairing kept, so the site needs a new link")
        assert site.connections == 1


async def test_a_new_consent_shows_only_what_the_site_asks_for_more_and_its_new_link_works():
    """byoa-sites.md: "a site that asks for more later gets a new consent showing only the difference"."""
    wider = _quiz(lambda m: (_limit("maxAnswerTokens", 400)(m), m["purpose"]["limits"].pop("maxTextChars")))
    async with FakeSite(manifest=QUIZ) as site:
        visitor = DirectWallet(ScriptedBackend({TEXT: {"text": "yes"}}, models=["m1", "m2"]), dev_local=True)
        assert await visitor.open(site.link())
        origin = "http://" + site.endpoint.split("/")[2]  # the page origin of ws://127.0.0.1:<port>
        assert visitor.consent_windows == [{"site": origin, "asks": [TEXT], "more": None}]
        await visitor.close()
        site.manifest = wider
        assert await visitor.open(site.link(code="B" * 32))
        assert visitor.consent_windows[-1]["more"] == [
            "maxAnswerTokens 400 (allowed 200)",
            "no maxTextChars (allowed 4000)",
        ]
        assert visitor.activity[-2] == (
            "consent for more: maxAnswerTokens 400 (allowed 200); no maxTextChars (allowed 4000)"
        )
        assert site.hellos[-1]["session"] == "B" * 32
        await visitor.close()


async def test_at_most_4_links_are_handled_at_once():
    """byoa-sites.md: "At most 4 links are handled at once"."""
    held, arrived = asyncio.Event(), asyncio.Event()
    async with FakeSite() as site:
        hellos = []

        async def slow_welcome(ws):
            hellos.append(json.loads(await ws.recv()))
            arrived.set()
            await held.wait()
            await ws.send(json.dumps(protocol.welcome(TOKEN, GEO)))
            await ws.wait_closed()

        site.script = slow_welcome
        visitor = wallet()
        opening = [asyncio.ensure_future(visitor.open(site.link(code=c * 32))) for c in "ABCDE"]
        await asyncio.wait_for(_until(arrived, lambda: len(hellos) == 4), 5)
        # The fifth link waits for a slot, before any check or connection: four are being handled.
        assert visitor._link_slots.locked() and not opening[4].done()
        held.set()
        await asyncio.wait_for(asyncio.gather(*opening), 10)
        assert len(hellos) == 5
        await visitor.close()
