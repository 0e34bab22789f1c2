"""
Every page a visitor meets speaks their language: no skill id, protocol or SDK name, "own mode",
"(no AI)" or "stand-in" outside "How this page works" (#how-it-works), the test wallet's own
labelled banner and panels. Each page is read twice in Debian's Chromium: as the server sent it
(script off: all its text, hidden or not, and the attributes read aloud) and as the visitor sees it
once the page's script has run, with every fold opened and each game one move in.
"""

import json
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]
SKILL_IDS = sorted(
    set(json.loads((ROOT / "frontend/testwallet/skills.json").read_text())["skills"])
    | {
        skill
        for manifest in ROOT.glob("sites/*/manifest.json")
        for skill in json.loads(manifest.read_text())["skills"]
    }
)
# Case matters where a word is also plain English ("extension" of a deadline is not plumbing).
PLUMBING = [
    *(re.escape(skill) for skill in SKILL_IDS),
    r"\bBYOA\b",
    r"\b(Web)?MCP\b",
    r"\bSDK\b",
    r"\bsdkOptions\b",
    r"\bopenai\b",
    r"\bbringyourownagent\b",
    r"\bwindow\.\w",
    r"\bLanguageModel\b",
    r"\bPrompt API\b",
    r"\bmanifest\b",
    r"(?i)\bown mode\b",
    r"(?i)\(no AI\)",
    r"(?i)\bstand-ins?\b",
    r"(?i)\bbrowser extension\b",
]
# Where plumbing may be named: the developer's corner of each page and the test wallet's own labels.
EXPLAINED = "#how-it-works, .testwallet-banner, testwallet-panel"
BOOK = "/bookshop/books/pride-and-prejudice/"
PAGES = [
    "/",
    "/bookshop/",
    "/bookshop/?q=dragons",
    "/bookshop/?q=zeppelins+of+mars",
    BOOK,
    "/bookshop/basket/",
    "/geography/",
    "/twentyq/",
]

SENT = """(explained) => {
  for (const node of document.querySelectorAll(`${explained}, script, style, template`)) node.remove();
  const names = ['alt', 'title', 'aria-label', 'placeholder', 'value'];
  const said = [...document.querySelectorAll('[alt], [title], [aria-label], [placeholder], input[value]')]
    .flatMap((node) => names.map((name) => node.getAttribute(name) ?? ''));
  return [document.title, document.body.textContent, ...said].join('\\n');
}"""

SHOWN = """(explained) => {
  for (const fold of document.querySelectorAll('details')) fold.open = true;
  for (const node of document.querySelectorAll(explained)) node.style.display = 'none';
  const names = ['alt', 'title', 'aria-label', 'placeholder'];
  const said = [...document.querySelectorAll('[alt], [title], [aria-label], [placeholder]')]
    .filter((node) => node.checkVisibility())
    .flatMap((node) => names.map((name) => node.getAttribute(name) ?? ''));
  return [document.body.innerText, ...said].join('\\n');
}"""


def with_wallet(path: str, wallet: str) -> str:
    """`path` with the query `wallet` added ('' adds nothing)."""
    return path + ("&" if "?" in path else "?") + wallet if wallet else path


def plumbing_in(text: str) -> list[str]:
    """Each plumbing word in `text`, with the line it stands in."""
    found = []
    for line in text.splitlines():
        found += [f"{pattern}: {line.strip()[:160]}" for pattern in PLUMBING if re.search(pattern, line)]
    return found


def test_the_plumbing_words_are_found_where_they_stand():
    text = (
        "Turn what you say into text (audio.transcribe)\nThe site (no AI) asked\nThe BYOA extension stand-in"
    )
    assert len(plumbing_in(text)) == 4
    assert (
        plumbing_in(
            "Listen to what you say and write it down; an extension of time; the site's own questions"
        )
        == []
    )


@pytest.mark.parametrize("wallet", ["", "testwallet=1"], ids=["no-wallet", "testwallet"])
async def test_the_pages_as_sent_name_no_plumbing_outside_how_this_page_works(browser, debug_site, wallet):
    context = await browser.new_context(java_script_enabled=False)
    page = await context.new_page()
    found = {}
    for path in [*PAGES, "/no-such-page/"]:
        response = await page.goto(debug_site.url + with_wallet(path, wallet))
        assert response.status == (404 if path == "/no-such-page/" else 200), path
        found[path] = plumbing_in(await page.evaluate(SENT, EXPLAINED))
    await context.close()
    assert {path: words for path, words in found.items() if words} == {}


@pytest.mark.parametrize("wallet", ["", "testwallet=1"], ids=["no-wallet", "testwallet"])
async def test_the_pages_as_shown_name_no_plumbing_outside_how_this_page_works(page, debug_site, wallet):
    found = {}

    async def read(name):
        found[name] = plumbing_in(await page.evaluate(SHOWN, EXPLAINED))

    for path in PAGES:
        await page.goto(debug_site.url + with_wallet(path, wallet))
        await page.wait_for_load_state("networkidle")
        await read(path)
    # Each game one move in, its ways opened: what a visitor reads next.
    await page.goto(debug_site.url + with_wallet("/twentyq/", wallet))
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.locator("#change-way").click()
    await read("twentyq: its ways opened")
    await page.locator("#change-way").click()
    await page.locator("#new-ai-asks").click()
    await page.locator("#answer-form:not([hidden])").wait_for(timeout=15000)
    await page.locator("#answer-yes").click()
    await page.locator("#history li").first.wait_for(timeout=15000)
    await read("twentyq: one answer in")
    await page.goto(debug_site.url + with_wallet("/geography/", wallet))
    await page.get_by_label("Your answer").fill("Atlantis")
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.locator("#verdict[data-verdict]").wait_for(timeout=15000)
    await read("geography: one answer in")
    assert {name: words for name, words in found.items() if words} == {}
