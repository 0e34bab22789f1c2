"""
``{% testwallet_scripts %}`` on a site's own page (not the demos' base template): with DEBUG and
``?testwallet=1`` the page gets the AI Wallet and BYOA stand-ins, which ask in their own panel and
answer through the site's relay (here the scripted player); without the parameter, nothing.
"""

import asyncio

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from tests.testwallet.panel import press, record_native_dialogs
from tests.testwallet.relay.model_double import SETUP
from testwallet.server import DaphneServer

MANIFEST = {
    "byoa": "0.1-draft",
    "purpose": {"summary": "Answer questions about my own site"},
    "skills": {"text.generate": {"required": True}},
    "privacy": "public",
    "expectedCost": {"perSession": "0.01 USD"},
}


@pytest.fixture(scope="module")
def own_site(tmp_path_factory):
    """A site of its own under daphne with DEBUG on and no model named: the scripted player answers."""
    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.testwallet.relay.own_site.settings",
        env={"DJANGO_DEBUG": "1", "TESTWALLET_MODEL_URL": "", "TESTWALLET_TRANSCRIBE_URL": ""},
        setup_commands=SETUP,
        workdir=tmp_path_factory.mktemp("own-site-daphne"),
    )
    with server:
        yield server


def render(request):
    return Template("{% load testwallet %}{% testwallet_scripts %}").render(Context({"request": request}))


def test_tag_renders_nothing_when_the_test_wallet_is_off():
    request = RequestFactory().get("/")
    assert render(request) == ""
    request.testwallet = False
    assert render(request) == ""


def test_tag_loads_the_panel_the_relay_and_the_stand_ins_in_order():
    request = RequestFactory().get("/")
    request.testwallet, request.testwallet_relay = True, {"chat": "/testwallet/relay/chat", "token": "t"}
    html = render(request)
    order = [
        html.index(f"testwallet/{name}")
        for name in ("panel.js", "relay.js", "aiwallet.js", "byoa-skills.js", "byoa.js")
    ]
    assert order == sorted(order)
    assert '<script id="testwallet-relay" type="application/json">' in html


@pytest.mark.browser
@pytest.mark.live
async def test_a_sites_own_page_gets_both_stand_ins_answering_through_the_relay(page, own_site):
    dialogs = record_native_dialogs(page)
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    await page.goto(own_site.url + "/")
    assert await page.evaluate("typeof window.aiwallet + ' ' + typeof window.byoa") == "undefined undefined"

    await page.goto(own_site.url + "/?testwallet=1")
    connecting = asyncio.ensure_future(page.evaluate("window.aiwallet.request('connect')"))
    assert "A scripted player answers" in await press(page, "Approve")
    assert (await connecting)["connected"] is True
    chat = await page.evaluate(
        "window.aiwallet.request('chat', { messages: [{ role: 'user', content: 'Hello' }] })"
    )
    assert chat["message"]["content"].startswith("(scripted stand-in, not an AI)")

    await page.evaluate(
        """(manifest) => document.querySelector('#ask').addEventListener('click', () => {
             window.__grant = window.byoa.request(manifest); }, { once: true })""",
        MANIFEST,
    )
    await page.locator("#ask").click()
    await press(page, "Allow")
    grant = await asyncio.wait_for(page.evaluate("window.__grant"), 10)
    answer = await page.evaluate(
        "(g) => window.byoa.call(g, 'text.generate', { messages: [{ role: 'user', content: 'Hi' }] })",
        grant["grantId"],
    )
    assert answer["ok"] and answer["output"]["text"].startswith("(scripted stand-in, not an AI)")

    await page.goto(own_site.url + "/")  # the choice sticks, in a cookie
    assert await page.evaluate("typeof window.byoa") == "object"
    assert dialogs == [] and problems == []
