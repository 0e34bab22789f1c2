"""
``python -m testwallet.direct`` says what it is doing, as a real process: one line as it
connects, one per call it answers (skill, ok, duration) and one as it stops; never the
session code, the pairing token or what a call carried.
"""

import asyncio
import json
import re
import sys
from pathlib import Path

from websockets.asyncio.server import ServerConnection, serve

from byoa.pairing import manifests
from byoa.pairing.invitations import build
from byoa.wire import protocol

ROOT = Path(__file__).resolve().parents[3]
QUIZ = manifests.encode(json.loads((ROOT / "tests" / "byoa" / "manifests" / "quiz.json").read_text()))[1]
CODE = "C0de" * 8
TOKEN = "pairing-token-" + "t" * 30
QUESTION = "What is the secret question?"
ANSWER = "The secret answer"


async def test_the_command_prints_a_line_as_it_connects_answers_each_call_and_stops():
    results = []

    async def site(ws: ServerConnection) -> None:
        json.loads(await ws.recv())  # the hello
        await ws.send(json.dumps(protocol.welcome(TOKEN, QUIZ)))
        messages = [{"role": "user", "content": QUESTION}]
        await ws.send(
            json.dumps(protocol.call(1, "text.generate", {"messages": messages}, {"maxTokens": 20}))
        )
        await ws.send(json.dumps(protocol.call(2, "audio.transcribe", {"audio": {}}, {})))  # not granted
        while len(results) < 2:
            frame = json.loads(await ws.recv())
            if frame["type"] == "result":
                results.append(frame)
        await ws.send(json.dumps(protocol.bye()))
        await ws.wait_closed()

    async with serve(site, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        link = build(f"ws://127.0.0.1:{port}/byoa/ws", QUIZ, CODE)
        wallet = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "testwallet.direct",
            link,
            "--dev-local",
            "--script",
            "text.generate=" + json.dumps({"text": ANSWER}),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(wallet.communicate(), 30)
    printed = output.decode()
    assert wallet.returncode == 0, printed
    assert [frame["ok"] for frame in sorted(results, key=lambda f: f["id"])] == [True, False]
    lines = printed.splitlines()
    assert lines[0] == f"connected to ws://127.0.0.1:{port}/byoa/ws (skills: text.generate)", printed
    answered = sorted(lines[1:3])
    assert re.fullmatch(r"answered a skill not granted: not ok in \d+\.\d\d s", answered[0]), printed
    assert re.fullmatch(r"answered text.generate: ok in \d+\.\d\d s", answered[1]), printed
    assert lines[3:] == ["the site said bye", "stopped after 1 answered call"], printed
    for secret in (CODE, TOKEN, QUIZ, "secret"):
        assert secret not in printed


async def test_the_visitors_controls_on_standard_input_change_the_grant_pause_and_resume():
    """byoa-sites.md: "a grant frame tells a change"; "A site the visitor paused is not reconnected"."""
    seen = []
    hellos = []
    stepped = asyncio.Event()

    async def site(ws: ServerConnection) -> None:
        hellos.append(json.loads(await ws.recv()))
        await ws.send(json.dumps(protocol.welcome(TOKEN, QUIZ)))
        stepped.set()
        if len(hellos) == 2:  # back after the resume: the site ends it
            await ws.send(json.dumps(protocol.bye()))
        async for message in ws:
            seen.append(json.loads(message))
            stepped.set()

    async def until(predicate):
        while not predicate():
            stepped.clear()
            await asyncio.wait_for(stepped.wait(), 10)

    async with serve(site, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        wallet = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "testwallet.direct",
            build(f"ws://127.0.0.1:{port}/byoa/ws", QUIZ, CODE),
            "--dev-local",
            "--consent",
            "decide-on-my-own",
            "--controls",
            "--script",
            "text.generate=" + json.dumps({"text": ANSWER}),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        await until(lambda: len(hellos) == 1)
        wallet.stdin.write(b'grant {"limits": {"maxCallsPerMinute": 5}}\nfly away\npause\n')
        await wallet.stdin.drain()
        await until(lambda: {"type": "bye"} in seen)
        assert seen[0]["type"] == "grant" and seen[0]["grant"]["limits"]["maxCallsPerMinute"] == 5
        assert len(hellos) == 1  # paused: not reconnected
        wallet.stdin.write(b"resume\n")
        await wallet.stdin.drain()
        output, _ = await asyncio.wait_for(wallet.communicate(), 30)
    printed = output.decode()
    assert wallet.returncode == 0, printed
    assert len(hellos) == 2, printed
    assert (hellos[1]["session"], hellos[1]["pairing"]) == (None, TOKEN)
    assert "grant changed (skills: text.generate)" in printed
    assert "control refused: unknown control 'fly': pause, resume, bye or grant JSON" in printed
    assert "paused by the visitor" in printed and "resumed by the visitor" in printed
    assert printed.splitlines()[-2:] == ["the site said bye", "stopped after 0 answered calls"], printed
    assert TOKEN not in printed and CODE not in printed
