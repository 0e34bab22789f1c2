"""The test wallet's window.byoa (frontend/testwallet/byoa.js) in Chromium, driven by byoa_extension."""

import asyncio
import base64
import copy
import datetime
import io
import json
import struct
import wave

import bringyourownagent
import pytest

from tests.testwallet.byoa_cases import CASES, GEO, QUIZ, with_limits
from testwallet.extension import BINDING, FAILED, script_paths

pytestmark = [pytest.mark.browser, pytest.mark.live]

BOUND = 10  # seconds: the most any single step of these tests may take

PAGE = "<!doctype html><html><head><title>site</title></head><body><p>A site</p></body></html>"


# -- helpers ---------------------------------------------------------------------


def wav_base64(seconds, *, rate=16000, channels=1, width=2):
    """Return base64 of a silent WAV made by the standard library."""
    out = io.BytesIO()
    with wave.open(out, "wb") as clip:
        clip.setnchannels(channels)
        clip.setsampwidth(width)
        clip.setframerate(rate)
        clip.writeframes(b"\0" * int(seconds * rate) * channels * width)
    return base64.b64encode(out.getvalue()).decode()


def streaming_wav_base64(seconds):
    """Return a 16 kHz mono clip whose data chunk claims 0xFFFFFFFF bytes, as a streaming recorder writes."""
    data = bytearray(base64.b64decode(wav_base64(seconds)))
    data[40:44] = struct.pack("<I", 0xFFFFFFFF)
    return base64.b64encode(bytes(data)).decode()


def audio(b64):
    return {"audio": {"mime": "audio/wav", "base64": b64}}


def ask(text):
    return {"messages": [{"role": "user", "content": text}]}


async def open_site(page, daphne_server, byoa_extension, *, clock=False):
    """Install the extension, optionally a paused clock, and open the home page."""
    await byoa_extension.install(page)
    if clock:
        await page.clock.install(time=datetime.datetime(2026, 10, 12, 12, 0, tzinfo=datetime.UTC))
    await page.goto(daphne_server.url + "/")
    if clock:
        await page.clock.pause_at(datetime.datetime(2026, 10, 12, 13, 0, tzinfo=datetime.UTC))


async def request_on_click(page, manifest):
    """Click a button whose handler calls window.byoa.request(manifest); return the answer."""
    await arm_button(page, manifest)
    await page.click("#ask")
    return await bounded(page.evaluate("window.__answer"))


async def arm_button(page, manifest):
    await page.evaluate(
        """(manifest) => {
          document.querySelector('#ask')?.remove();
          const button = document.createElement('button');
          button.id = 'ask';
          button.textContent = 'Use my AI';
          document.body.append(button);
          window.__settled = false;
          window.__answer = new Promise((resolve) => button.addEventListener('click', () => {
            window.byoa.request(manifest).then((grant) => { window.__settled = true; resolve(grant); });
          }, { once: true }));
        }""",
        manifest,
    )


async def ask_at_load(page, manifest):
    """Make the page call request(manifest) as it loads, with no click before it.

    Playwright's evaluate runs with a user gesture in Chromium (and the
    activation lasts some seconds), so a request "without a click" is made by
    the page itself.
    """
    await page.add_init_script(
        "addEventListener('DOMContentLoaded', () => {"
        f" window.__atLoad = window.byoa.request({json.dumps(manifest)}); }});"
    )


async def call(page, grant, skill, input, params=None):
    return await bounded(
        page.evaluate(
            "([g, s, i, p]) => window.byoa.call(g, s, i, p)", [grant["grantId"], skill, input, params]
        )
    )


async def bounded(awaitable):
    return await asyncio.wait_for(awaitable, BOUND)


async def granted(page, daphne_server, byoa_extension, manifest=GEO, **options):
    await open_site(page, daphne_server, byoa_extension, **options)
    grant = await request_on_click(page, manifest)
    assert grant is not None, byoa_extension.requests
    return grant


# -- where window.byoa exists ----------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "present"),
    [
        ("https://visitor-site.test/", True),
        ("http://localhost:8123/", True),
        ("http://127.0.0.1:8123/", True),
        ("http://visitor-site.test/", False),
        ("http://127.0.0.2:8123/", False),
        ("http://localhost.visitor-site.test/", False),
    ],
)
async def test_byoa_exists_only_on_https_and_local_http_pages(page, byoa_extension, url, present):
    await byoa_extension.install(page)
    await page.route(url + "**", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    await page.goto(url)
    assert await page.evaluate("typeof window.byoa === 'object' && 'byoa' in window") is present


async def test_byoa_ready_fires_with_window_byoa_defined(page, daphne_server, byoa_extension):
    await page.add_init_script(
        "window.__ready = []; addEventListener('byoa:ready', () => window.__ready.push(typeof window.byoa.request));"
    )
    await open_site(page, daphne_server, byoa_extension)
    assert await page.evaluate("window.__ready") == ["function"]


async def test_window_byoa_cannot_be_replaced_by_the_page(page, daphne_server, byoa_extension):
    await open_site(page, daphne_server, byoa_extension)
    assert await page.evaluate(
        """() => {
          const before = window.byoa;
          try { window.byoa = {}; } catch {}
          try { window.byoa.request = null; } catch {}
          return window.byoa === before && typeof window.byoa.request === 'function' && Object.isFrozen(before);
        }"""
    )


async def test_the_manifest_rules_are_out_of_the_pages_reach(page, daphne_server, byoa_extension):
    await open_site(page, daphne_server, byoa_extension)
    assert await page.evaluate("() => '__testwalletByoaManifest' in window") is False


# -- request -------------------------------------------------------------------


async def test_request_without_a_click_answers_null_and_shows_nothing(page, daphne_server, byoa_extension):
    await ask_at_load(page, GEO)
    await open_site(page, daphne_server, byoa_extension)
    assert await bounded(page.evaluate("window.__atLoad")) is None
    (record,) = byoa_extension.requests
    assert (record.activated, record.decision, record.reason) == (False, "quiet", "no-click")


async def test_stub_itself_refuses_a_request_without_a_click_or_with_an_invalid_manifest(page, daphne_server):
    # A wallet that would allow anything: the stub's own rules must still say no.
    async def always_allow(source, message):
        return {"decision": "allow"} if message["type"] == "request" else None

    await page.expose_binding(BINDING, always_allow)
    for path in script_paths():
        await page.add_init_script(path=str(path))
    await ask_at_load(page, GEO)
    await page.goto(daphne_server.url + "/")
    assert await bounded(page.evaluate("window.__atLoad")) is None
    assert await request_on_click(page, {**GEO, "privacy": "secret"}) is None
    assert await request_on_click(page, GEO) is not None


async def test_request_from_a_click_with_allow_returns_a_grant(page, daphne_server, byoa_extension):
    byoa_extension.allow()
    await open_site(page, daphne_server, byoa_extension)
    grant = await request_on_click(page, GEO)
    assert set(grant) == {"grantId", "skills", "expiresAt"}
    assert grant["skills"] == ["audio.transcribe"]
    assert datetime.datetime.fromisoformat(grant["expiresAt"]) > datetime.datetime.now(datetime.UTC)
    (record,) = byoa_extension.requests
    assert record.activated and record.valid and record.grant == grant
    assert record.origin == daphne_server.url


@pytest.mark.parametrize("no", ["decline", "block", "no_fitting_model", "no_wallet", "invalid_manifest"])
async def test_every_no_answers_null(page, daphne_server, byoa_extension, no):
    manifest = GEO
    if no == "invalid_manifest":
        manifest = {**GEO, "privacy": "secret"}
    else:
        getattr(byoa_extension, no)()
    await open_site(page, daphne_server, byoa_extension)
    assert await request_on_click(page, manifest) is None
    assert byoa_extension.requests[0].grant is None


async def test_no_answer_in_120_seconds_answers_null(page, daphne_server, byoa_extension):
    byoa_extension.no_answer()
    await open_site(page, daphne_server, byoa_extension, clock=True)
    await arm_button(page, GEO)
    await page.click("#ask")
    await byoa_extension.wait_until(lambda ext: ext.requests and ext.requests[0].decision == "no-answer")
    await page.clock.fast_forward(119_000)
    assert await page.evaluate("window.__settled") is False
    await page.clock.fast_forward(1_000)
    assert await bounded(page.evaluate("window.__answer")) is None


async def test_required_skill_without_enough_models_answers_null(page, daphne_server, byoa_extension):
    byoa_extension.have(text_models=1)
    manifest = copy.deepcopy(QUIZ)
    manifest["skills"]["text.generate"]["models"]["need"] = "required"
    await open_site(page, daphne_server, byoa_extension)
    assert await request_on_click(page, manifest) is None
    assert byoa_extension.requests[0].reason == "no-fitting-model"


async def test_grant_lists_the_text_models_the_visitor_ticked(page, daphne_server, byoa_extension):
    byoa_extension.have(text_models=3)
    grant = await granted(page, daphne_server, byoa_extension, QUIZ)
    assert grant["models"] == ["m1", "m2"]


async def test_grant_holds_only_the_skills_the_visitor_ticked(page, daphne_server, byoa_extension):
    manifest = copy.deepcopy(GEO)
    manifest["skills"]["text.generate"] = {"required": False}
    byoa_extension.allow(skills=["audio.transcribe"])
    grant = await granted(page, daphne_server, byoa_extension, manifest)
    assert grant["skills"] == ["audio.transcribe"]
    byoa_extension.allow(skills=["text.generate"])  # a required skill left unticked is a "no"
    assert await request_on_click(page, manifest) is None


async def test_decide_on_my_own_grants_without_a_click(page, daphne_server, byoa_extension):
    byoa_extension.decide_on_my_own()
    await ask_at_load(page, GEO)
    await open_site(page, daphne_server, byoa_extension)
    grant = await bounded(page.evaluate("window.__atLoad"))
    assert grant["skills"] == ["audio.transcribe"]
    (record,) = byoa_extension.requests
    assert (record.activated, record.on_its_own) == (False, True)


async def test_allow_with_decide_on_my_own_lets_the_next_page_ask_without_a_click(
    page, daphne_server, byoa_extension
):
    byoa_extension.allow(decide_on_my_own=True)
    await granted(page, daphne_server, byoa_extension)
    await ask_at_load(page, GEO)
    await page.reload()
    assert await bounded(page.evaluate("window.__atLoad")) is not None


async def test_invalid_manifest_answers_null_even_on_its_own(page, daphne_server, byoa_extension):
    byoa_extension.decide_on_my_own()
    await open_site(page, daphne_server, byoa_extension)
    assert await request_on_click(page, {**GEO, "byoa": "0.2"}) is None
    assert [e["code"] for e in byoa_extension.requests[0].errors] == ["version-unsupported"]


async def test_manifest_rules_agree_with_the_bringyourownagent_library(page, daphne_server, byoa_extension):
    byoa_extension.decide_on_my_own()
    await open_site(page, daphne_server, byoa_extension)
    manifests = [m for _, m in CASES]
    answers = await bounded(
        page.evaluate(
            "async (all) => { const out = [];"
            " for (const m of all) out.push(await window.byoa.request(m)); return out; }",
            manifests,
        )
    )
    assert len(byoa_extension.requests) == len(CASES)
    for (name, manifest), record, answer in zip(CASES, byoa_extension.requests, answers, strict=True):
        expected = bringyourownagent.validate_manifest(json.loads(json.dumps(manifest)))
        assert (record.valid, record.errors, record.warnings) == (
            expected["ok"],
            expected["errors"],
            expected["warnings"],
        ), name
        if not expected["ok"]:
            assert answer is None, name
    assert sum(1 for r in byoa_extension.requests if r.valid) >= 10
    assert sum(1 for r in byoa_extension.requests if not r.valid) >= 30


# -- call -----------------------------------------------------------------------------


async def test_call_answers_with_the_scripted_output_and_a_receipt(page, daphne_server, byoa_extension):
    byoa_extension.have(text_models=2)
    byoa_extension.reply("text.generate", {"text": "yes"})
    grant = await granted(page, daphne_server, byoa_extension, QUIZ)
    result = await call(
        page, grant, "text.generate", ask("Is it a cat?"), {"choices": ["yes", "no"], "model": "m2"}
    )
    assert result["ok"] is True
    assert result["output"] == {"text": "yes"}
    assert set(result["receipt"]) == {"cost", "provider"}
    (logged,) = byoa_extension.calls
    assert logged.skill == "text.generate"
    assert logged.summary == {"messages": 1, "textChars": len("Is it a cat?")}
    # maxAnswerTokens of the manifest caps what the model is allowed to write.
    assert logged.params == {"choices": ["yes", "no"], "model": "m2", "maxTokens": 50}
    assert logged.ok is True


async def test_scripted_failure_answers_ok_false(page, daphne_server, byoa_extension):
    byoa_extension.reply("audio.transcribe", FAILED, {"text": "Peru"})
    grant = await granted(page, daphne_server, byoa_extension)
    assert await call(page, grant, "audio.transcribe", audio(wav_base64(1))) == {"ok": False}
    assert (await call(page, grant, "audio.transcribe", audio(wav_base64(1))))["output"] == {"text": "Peru"}


async def test_fail_calls_makes_every_call_answer_ok_false(page, daphne_server, byoa_extension):
    byoa_extension.fail_calls()
    grant = await granted(page, daphne_server, byoa_extension)
    assert await call(page, grant, "audio.transcribe", audio(wav_base64(1))) == {"ok": False}
    assert byoa_extension.calls[0].refused is None  # the model was asked and failed


async def test_function_answers_each_call(page, daphne_server, byoa_extension):
    byoa_extension.answer_with("audio.transcribe", lambda c: {"text": f"Peru ({c.params['language']})"})
    grant = await granted(page, daphne_server, byoa_extension)
    result = await call(page, grant, "audio.transcribe", audio(wav_base64(2)), {"language": "sk"})
    assert result["output"] == {"text": "Peru (sk)"}


async def test_call_without_a_script_gets_labelled_deterministic_answers(page, daphne_server, byoa_extension):
    byoa_extension.have(text_models=2)
    manifest = copy.deepcopy(QUIZ)
    manifest["skills"]["audio.transcribe"] = {"required": False}
    grant = await granted(page, daphne_server, byoa_extension, manifest)
    text = await call(page, grant, "text.generate", ask("Is it blue?"))
    assert text["output"] == {"text": "(test wallet) Is it blue?"}
    clip = await call(page, grant, "audio.transcribe", audio(wav_base64(2.5)))
    assert clip["output"] == {"text": "(test wallet) audio of 2.5 s"}


@pytest.mark.parametrize(
    ("clip", "reason"),
    [
        pytest.param(wav_base64(17), "clip-too-long", id="17 s"),
        pytest.param(wav_base64(2, rate=8000), "audio-invalid", id="8 kHz"),
        pytest.param(wav_base64(2, channels=2), "audio-invalid", id="stereo"),
        pytest.param(wav_base64(2, width=1), "audio-invalid", id="8-bit"),
        pytest.param(base64.b64encode(b"ID3\x04" + b"\0" * 4000).decode(), "audio-invalid", id="not RIFF"),
        pytest.param(streaming_wav_base64(17), "clip-too-long", id="17 s with a header claiming any length"),
        pytest.param("UklGR!!!", "audio-invalid", id="not base64"),
    ],
)
async def test_clip_the_skill_does_not_take_is_refused(page, daphne_server, byoa_extension, clip, reason):
    grant = await granted(page, daphne_server, byoa_extension)
    assert await call(page, grant, "audio.transcribe", audio(clip), {"language": "en"}) == {"ok": False}
    (logged,) = byoa_extension.calls
    assert (logged.refused, logged.input) == (reason, None)  # refused before any model saw it


async def test_clip_over_the_manifest_max_clip_seconds_is_refused(page, daphne_server, byoa_extension):
    grant = await granted(page, daphne_server, byoa_extension, with_limits(maxClipSeconds=5))
    assert await call(page, grant, "audio.transcribe", audio(wav_base64(6))) == {"ok": False}
    assert (await call(page, grant, "audio.transcribe", audio(wav_base64(5))))["ok"] is True


async def test_good_16khz_mono_16bit_clip_is_accepted(page, daphne_server, byoa_extension):
    byoa_extension.reply("audio.transcribe", {"text": "Peru"})
    grant = await granted(page, daphne_server, byoa_extension)
    result = await call(page, grant, "audio.transcribe", audio(wav_base64(15)), {"language": "ru"})
    assert result["ok"] is True and result["output"] == {"text": "Peru"}
    (logged,) = byoa_extension.calls
    assert logged.summary["audio"]["clipSeconds"] == 15
    assert logged.params == {"language": "ru"}


async def test_language_the_manifest_does_not_declare_is_refused(page, daphne_server, byoa_extension):
    grant = await granted(page, daphne_server, byoa_extension)
    assert await call(page, grant, "audio.transcribe", audio(wav_base64(1)), {"language": "de"}) == {
        "ok": False
    }
    assert byoa_extension.calls[0].refused == "language-not-declared"


async def test_rate_limit_holds_within_a_minute_and_frees_after_it(page, daphne_server, byoa_extension):
    grant = await granted(page, daphne_server, byoa_extension, with_limits(maxCallsPerMinute=3), clock=True)
    clip = audio(wav_base64(1))
    results = [await call(page, grant, "audio.transcribe", clip) for _ in range(4)]
    assert [r["ok"] for r in results] == [True, True, True, False]
    assert byoa_extension.calls[-1].refused == "rate-exceeded"
    await page.clock.fast_forward(59_000)
    assert (await call(page, grant, "audio.transcribe", clip))["ok"] is False
    await page.clock.fast_forward(1_000)
    assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True


async def test_text_over_max_text_chars_is_refused(page, daphne_server, byoa_extension):
    grant = await granted(page, daphne_server, byoa_extension, QUIZ)
    assert await call(page, grant, "text.generate", ask("x" * 4001)) == {"ok": False}
    assert byoa_extension.calls[0].refused == "text-too-long"


async def test_skill_or_model_outside_the_grant_is_refused(page, daphne_server, byoa_extension):
    byoa_extension.have(text_models=2)
    grant = await granted(page, daphne_server, byoa_extension, QUIZ)
    assert await call(page, grant, "audio.transcribe", audio(wav_base64(1))) == {"ok": False}
    assert await call(page, grant, "text.generate", ask("Hi"), {"model": "m3"}) == {"ok": False}
    assert [c.refused for c in byoa_extension.calls] == ["skill-not-granted", "model-not-granted"]


async def test_grant_expires_at_its_expires_at(page, daphne_server, byoa_extension):
    byoa_extension.allow(expires_in=600)
    grant = await granted(page, daphne_server, byoa_extension, clock=True)
    clip = audio(wav_base64(1))
    assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True
    await page.clock.fast_forward(600_000)
    assert await call(page, grant, "audio.transcribe", clip) == {"ok": False}
    assert byoa_extension.calls[-1].refused == "grant-expired"


async def test_release_makes_later_calls_fail(page, daphne_server, byoa_extension):
    grant = await granted(page, daphne_server, byoa_extension)
    clip = audio(wav_base64(1))
    assert (await call(page, grant, "audio.transcribe", clip))["ok"] is True
    await bounded(page.evaluate("(id) => window.byoa.release(id)", grant["grantId"]))
    assert await call(page, grant, "audio.transcribe", clip) == {"ok": False}
    assert byoa_extension.releases == [grant["grantId"]]
    assert byoa_extension.calls[-1].refused == "no-grant"


async def test_calls_over_max_parallel_calls_are_refused(page, daphne_server, byoa_extension):
    release = asyncio.Event()

    async def slow(call):
        await release.wait()
        return {"text": "Peru"}

    byoa_extension.answer_with("audio.transcribe", slow)
    grant = await granted(page, daphne_server, byoa_extension, with_limits(maxParallelCalls=2))
    clip = audio(wav_base64(1))
    first = asyncio.ensure_future(call(page, grant, "audio.transcribe", clip))
    second = asyncio.ensure_future(call(page, grant, "audio.transcribe", clip))
    await byoa_extension.wait_until(lambda ext: len(ext.calls) == 2)
    assert await call(page, grant, "audio.transcribe", clip) == {"ok": False}
    assert byoa_extension.calls[-1].refused == "too-many-in-flight"
    release.set()
    assert [(await first)["ok"], (await second)["ok"]] == [True, True]


async def test_call_longer_than_max_call_seconds_answers_ok_false(page, daphne_server, byoa_extension):
    release = asyncio.Event()

    async def stuck(call):
        await release.wait()
        return {"text": "too late"}

    byoa_extension.answer_with("audio.transcribe", stuck)
    grant = await granted(page, daphne_server, byoa_extension, with_limits(maxCallSeconds=20), clock=True)
    pending = asyncio.ensure_future(call(page, grant, "audio.transcribe", audio(wav_base64(1))))
    await byoa_extension.wait_until(lambda ext: len(ext.calls) == 1)
    await page.clock.fast_forward(20_000)
    assert await bounded(pending) == {"ok": False}
    release.set()


async def test_install_into_a_context_serves_its_pages(context, daphne_server, byoa_extension):
    byoa_extension.decide_on_my_own()
    await byoa_extension.install(context)
    page = await context.new_page()
    await ask_at_load(page, GEO)
    await page.goto(daphne_server.url + "/")
    assert await bounded(page.evaluate("window.__atLoad")) is not None
    assert byoa_extension.requests[0].origin == daphne_server.url


async def test_unusable_scripted_output_is_rejected_when_scripted():
    from testwallet.extension import ByoaExtension

    with pytest.raises(TypeError, match="text"):
        ByoaExtension().reply("audio.transcribe", "Peru")


# -- the stub alone (no binding: a person browsing with the test wallet) -------------------


async def test_stub_alone_asks_in_its_panel_and_answers_labelled_defaults(page, daphne_server):
    for path in script_paths():
        await page.add_init_script(path=str(path))
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.type))
    await page.goto(daphne_server.url + "/")
    asking = asyncio.ensure_future(request_on_click(page, GEO))
    panel = page.get_by_role("dialog", name="Test wallet")
    await panel.wait_for(timeout=5000)
    assert "not part of this site" in await panel.text_content()
    assert "ask your AI to listen to what you say and write it down?" in await panel.text_content()
    assert "audio.transcribe" not in await panel.text_content()  # the visitor's words, not the skill id
    await panel.get_by_role("button", name="Allow").click()
    grant = await bounded(asking)
    assert grant["skills"] == ["audio.transcribe"]
    assert await panel.count() == 0
    # It cannot hear: it asks what was said, and answers its labelled default when the person skips.
    calling = asyncio.ensure_future(call(page, grant, "audio.transcribe", audio(wav_base64(1.2))))
    await panel.get_by_role("textbox", name="Type what you said").wait_for(timeout=5000)
    assert "cannot hear your 1.2 s clip" in await panel.text_content()
    await panel.get_by_role("button", name="Skip").click()
    assert (await calling)["output"] == {"text": "(test wallet) audio of 1.2 s"}
    typed = asyncio.ensure_future(call(page, grant, "audio.transcribe", audio(wav_base64(0.5))))
    await panel.get_by_role("textbox", name="Type what you said").fill("Peru")
    await page.keyboard.press("Enter")
    assert (await typed)["output"] == {"text": "Peru"}
    assert dialogs == []


async def test_stub_alone_panel_is_answered_from_the_keyboard(page, daphne_server):
    for path in script_paths():
        await page.add_init_script(path=str(path))
    await page.goto(daphne_server.url + "/")
    asking = asyncio.ensure_future(request_on_click(page, GEO))
    panel = page.get_by_role("dialog", name="Test wallet")
    await panel.wait_for(timeout=5000)
    # The panel takes the focus (its first button, Allow): Escape declines, as closing a window does.
    assert await page.evaluate("document.activeElement.tagName") == "TESTWALLET-PANEL"
    await page.keyboard.press("Escape")
    assert await bounded(asking) is None
    again = asyncio.ensure_future(request_on_click(page, GEO))
    await panel.wait_for(timeout=5000)
    await page.keyboard.press("Enter")
    assert (await bounded(again))["skills"] == ["audio.transcribe"]


async def test_stub_alone_panel_shows_the_pages_words_as_text(page, daphne_server):
    for path in script_paths():
        await page.add_init_script(path=str(path))
    await page.goto(daphne_server.url + "/")
    hostile = {**GEO, "purpose": {**GEO["purpose"], "summary": "<img src=x onerror=window.__owned=1>"}}
    asking = asyncio.ensure_future(request_on_click(page, hostile))
    panel = page.get_by_role("dialog", name="Test wallet")
    await panel.wait_for(timeout=5000)
    assert "<img src=x onerror=window.__owned=1>" in await panel.text_content()
    assert await panel.locator("img").count() == 0
    await panel.get_by_role("button", name="Decline").click()
    assert await bounded(asking) is None
    assert await page.evaluate("window.__owned") is None


async def test_stub_alone_answers_null_without_a_click_and_shows_no_dialog(page, daphne_server):
    for path in script_paths():
        await page.add_init_script(path=str(path))
    await ask_at_load(page, GEO)
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog))
    await page.goto(daphne_server.url + "/")
    assert await bounded(page.evaluate("window.__atLoad")) is None
    assert dialogs == []
