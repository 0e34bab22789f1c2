"""
The one rule book for a call's checks (frontend/testwallet/skills.json): the in-page stand-in
(byoa-checks.js, run as a browser runs it) and the headless wallet (testwallet/_call_checks.py,
and over a real direct link) get the same calls, good and bad, and give the same outcome.
"""

import asyncio
import base64
import json
import re
import struct
import subprocess
from pathlib import Path

import pytest

from byoa.pairing import manifests
from byoa.wire import protocol, wav
from tests.testwallet.direct.test_wallet import FakeSite, call_through
from tests.testwallet.test_byoa_stub import call, granted
from testwallet import _call_checks as call_checks
from testwallet.direct import DirectWallet, ScriptedBackend

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"

#: A site asking for both skills: English only, no maxClipSeconds of its own (the skill's 15 s
#: holds), 40 characters of text, answers of at most 100 tokens, one model.
MANIFEST = {
    "byoa": "0.1-draft",
    "purpose": {
        "summary": "Test: both skills, checked",
        "limits": {"maxTextChars": 40, "maxAnswerTokens": 100, "maxCallsPerMinute": 6000},
    },
    "skills": {
        "audio.transcribe": {"languages": ["en"], "required": True},
        "text.generate": {"required": True, "models": {"count": 1, "need": "required", "why": "One answer"}},
    },
    "privacy": "personal",
    "expectedCost": {"perSession": "0.01 USD"},
}
MODELS = ["m1"]


def clip(seconds=1.0, *, rate=16000, channels=1, mime="audio/wav"):
    samples = b"\0\0" * int(seconds * rate * channels)
    data = wav.write(samples, rate)
    if channels != 1:  # the same bytes, said to be stereo
        data = data[:22] + struct.pack("<H", channels) + data[24:]
    return {"audio": {"mime": mime, "base64": base64.b64encode(data).decode()}}


def chat(*contents):
    return {"messages": [{"role": "user", "content": text} for text in contents]}


AUDIO, TEXT = "audio.transcribe", "text.generate"

#: (what it is, skill, input, params, the outcome: "ok" or the rule book's refusal).
CASES = [
    ("a 1 s clip in a declared language", AUDIO, clip(1), {"language": "en"}, "ok"),
    ("a 15 s clip", AUDIO, clip(15), {}, "ok"),
    ("a 20 s clip where the manifest sets no maxClipSeconds", AUDIO, clip(20), {}, "clip-too-long"),
    ("a 16 s clip", AUDIO, clip(16), {"language": "en"}, "clip-too-long"),
    ("a language the manifest does not declare", AUDIO, clip(1), {"language": "fr"}, "language-not-declared"),
    ("an audio/ogg clip", AUDIO, clip(1, mime="audio/ogg"), {}, "audio-invalid"),
    ("a stereo WAV", AUDIO, clip(1, channels=2), {}, "audio-invalid"),
    ("an 8 kHz WAV", AUDIO, clip(1, rate=8000), {}, "audio-invalid"),
    (
        "base64 that is not a WAV",
        AUDIO,
        {"audio": {"mime": "audio/wav", "base64": "bm90IGEgd2F2"}},
        {},
        "audio-invalid",
    ),
    (
        "base64 that is not base64",
        AUDIO,
        {"audio": {"mime": "audio/wav", "base64": "not base64!"}},
        {},
        "audio-invalid",
    ),
    ("no audio at all", AUDIO, {"text": "Peru"}, {}, "audio-invalid"),
    ("a language that is not a string", AUDIO, clip(1), {"language": 7}, "params-invalid"),
    ("a model on a skill with none granted", AUDIO, clip(1), {"model": "m2"}, "model-not-granted"),
    ("a chat message", TEXT, chat("Is it Peru?"), {}, "ok"),
    ("a chat with the granted model", TEXT, chat("Is it Peru?"), {"model": "m1", "maxTokens": 20}, "ok"),
    ("a model not granted", TEXT, chat("Is it Peru?"), {"model": "m2"}, "model-not-granted"),
    ("no messages", TEXT, {"messages": []}, {}, "messages-invalid"),
    (
        "a message whose content is not text",
        TEXT,
        {"messages": [{"role": "user", "content": [1]}]},
        {},
        "messages-invalid",
    ),
    ("a message with no role", TEXT, {"messages": [{"content": "Peru?"}]}, {}, "messages-invalid"),
    ("41 characters, over maxTextChars", TEXT, chat("x" * 30, "y" * 11), {}, "text-too-long"),
    ("40 characters, at maxTextChars", TEXT, chat("x" * 30, "é" * 10), {}, "ok"),
    ("maxTokens 0", TEXT, chat("Peru?"), {"maxTokens": 0}, "params-invalid"),
    ("maxTokens 2.5", TEXT, chat("Peru?"), {"maxTokens": 2.5}, "params-invalid"),
    ("choices that are not strings", TEXT, chat("Peru?"), {"choices": ["yes", 1]}, "params-invalid"),
]

#: byoa-checks.js, byoa-clip.js and byoa-manifest.js as a browser runs them (a window, nothing else),
#: with the skill table through byoa-skills.js; each case's outcome printed as JSON.
RUN_IN_PAGE = """
const vm = require('node:vm');
const fs = require('node:fs');
const page = { atob };
page.window = page;
vm.createContext(page);
for (const name of ['byoa-clip.js', 'byoa-skills.js', 'byoa-manifest.js', 'byoa-checks.js']) {
  vm.runInContext(fs.readFileSync('testwallet/' + name, 'utf8'), page);
}
const { checkInput } = page.__testwalletByoaChecks;
const skills = page.__testwalletByoaSkills;
const { manifest, models, cases } = JSON.parse(fs.readFileSync(0, 'utf8'));
const state = { manifest, grant: { models } };
const outcomes = cases.map(([skill, input, params]) => {
  const checked = checkInput(skill, skills[skill], input, params, state);
  return 'refused' in checked ? { refused: checked.refused } : { summary: checked.summary, params: checked.params };
});
process.stdout.write(JSON.stringify(outcomes));
"""


def in_page(cases):
    """Return what the in-page stand-in's checks say of each (skill, input, params)."""
    run = subprocess.run(
        ["node", "-e", RUN_IN_PAGE],
        cwd=FRONTEND,
        input=json.dumps({"manifest": MANIFEST, "models": MODELS, "cases": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(run.stdout)


def headless(skill, input, params):
    """Return what the headless wallet's checks say of one call, in the in-page checks' shape."""
    checked = call_checks.check_call(skill, input, params, MANIFEST, MODELS)
    if isinstance(checked, call_checks.Refused):
        return {"refused": checked.code}
    return {"summary": checked.summary, "params": checked.params}


def test_the_in_page_stand_in_and_the_headless_wallet_give_each_call_the_same_outcome():
    page = in_page([[skill, input, params] for _what, skill, input, params, _outcome in CASES])
    for (what, skill, input, params, outcome), from_page in zip(CASES, page, strict=True):
        assert headless(skill, input, params) == from_page, what
        assert from_page.get("refused", "ok") == outcome, what


def test_the_manifests_answer_token_cap_reaches_the_model_in_both():
    (from_page,) = in_page([[TEXT, chat("Peru?"), {"maxTokens": 500}]])
    assert from_page["params"] == {"maxTokens": 100}
    assert headless(TEXT, chat("Peru?"), {"maxTokens": 500}) == from_page


def test_every_refusal_of_the_rule_book_is_exercised_and_no_reader_has_one_of_its_own():
    exercised = {outcome for *_rest, outcome in CASES} - {"ok"}
    assert exercised == set(call_checks.REFUSALS) - {"skill-not-served"}  # no skill row lacks an input kind
    in_js = set(re.findall(r"refused: '([a-z-]+)'", (FRONTEND / "testwallet" / "byoa-checks.js").read_text()))
    in_python = set(re.findall(r'Refused\("([a-z-]+)"\)', Path(call_checks.__file__).read_text()))
    assert in_js == in_python == set(call_checks.REFUSALS)


@pytest.mark.parametrize(
    ("what", "skill", "input", "params", "outcome"), CASES, ids=[case[0] for case in CASES]
)
async def test_the_headless_wallet_answers_each_call_over_the_direct_link_as_the_rule_book_says(
    what, skill, input, params, outcome
):
    """specs/byoa-sites.md: "the wallet checks every call against it" (the manifest)."""
    async with FakeSite(manifest=manifests.encode(MANIFEST)[1]) as site:
        backend = ScriptedBackend({AUDIO: {"text": "Peru"}, TEXT: {"text": "yes"}}, models=MODELS)
        wallet = DirectWallet(backend, dev_local=True)
        result = await call_through(site, wallet, protocol.call(1, skill, input, params))
        assert result["ok"] is (outcome == "ok"), what
        assert len(backend.calls) == (1 if outcome == "ok" else 0)
        if outcome != "ok":
            assert wallet.activity[-1] == f"call refused ({outcome})"
        await asyncio.wait_for(wallet.close(), 5)


@pytest.mark.browser
@pytest.mark.live
async def test_the_in_page_stand_in_answers_each_call_in_chromium_as_the_rule_book_says(
    page, daphne_server, byoa_extension
):
    """The same calls through window.byoa.call: ok where the headless wallet says ok, else its refusal."""
    grant = await granted(page, daphne_server, byoa_extension, MANIFEST)
    assert grant["models"] == MODELS
    for what, skill, input, params, outcome in CASES:
        answer = await call(page, grant, skill, input, params)
        assert answer["ok"] is (outcome == "ok"), what
        assert byoa_extension.calls[-1].refused == (None if outcome == "ok" else outcome), what
