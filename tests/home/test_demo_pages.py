"""
Every demo page as a visitor meets it, in Chromium at a desktop's 1280 x 800 and a phone's
375 x 740, in the light and the dark theme (prefers-color-scheme): no axe-core violation at all
(the npm package, loaded as an init script: the CSP allows no inline script), the game and its
ways in on the first screen, keyboard-only play, and the home page's ways to try each demo.
"""

from pathlib import Path

import pytest

from tests.home.games import finish_geography, finish_twentyq

pytestmark = [pytest.mark.browser, pytest.mark.live]

AXE = Path(__file__).resolve().parents[2] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
SCHEMES = ["light", "dark"]
PAGES = [
    "/",
    "/bookshop/",
    "/bookshop/?testwallet=1",
    "/bookshop/?q=zeppelins+of+mars",  # an empty result and what to try
    "/bookshop/basket/",
    "/geography/",
    "/geography/?testwallet=1",
    "/twentyq/",
    "/twentyq/?testwallet=1",
]


async def violations(page):
    """Run axe-core on the page; return 'rule: impact (n nodes)' for each finding, whatever its impact."""
    result = await page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['id']}: {v['impact']} ({len(v['nodes'])} nodes, e.g. {v['nodes'][0]['target']})"
        for v in result["violations"]
    ]


async def open_page(page, site, path, viewport, scheme="light"):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `make frontend-deps` (axe-core is a devDependency of frontend/)")
    await page.emulate_media(color_scheme=scheme)
    await page.set_viewport_size(viewport)
    await page.add_init_script(path=str(AXE))
    response = await page.goto(site.url + path)
    assert response.status == 200
    await page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
@pytest.mark.parametrize("path", PAGES)
async def test_demo_page_has_no_axe_violation_in_either_theme(page, debug_site, path, viewport, scheme):
    await open_page(page, debug_site, path, viewport, scheme)
    assert await violations(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
async def test_games_in_play_with_their_consent_opened_have_no_axe_violation(
    page, debug_site, viewport, scheme
):
    await open_page(page, debug_site, "/twentyq/", viewport, scheme)
    await page.locator("#manifest-plain summary").click()
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.locator("#new-ai-asks").click()
    await page.locator("#answer-form:not([hidden])").wait_for(timeout=10000)
    assert await violations(page) == []
    await open_page(page, debug_site, "/geography/", viewport, scheme)
    await page.locator("#asks summary").click()
    await page.get_by_label("Your answer").fill("Atlantis")
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.locator("#verdict[data-verdict]").wait_for(timeout=15000)
    await page.locator("#reveal:not([hidden])").wait_for(timeout=15000)
    await page.wait_for_function(
        "() => document.querySelector('#reveal-map').complete && document.querySelector('#reveal-map').naturalWidth > 0"
    )  # the place shown beside the verdict
    assert await violations(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
async def test_the_games_end_screens_have_no_axe_violation(page, debug_site, viewport, scheme):
    await open_page(page, debug_site, "/geography/", viewport, scheme)
    await finish_geography(page)
    assert await violations(page) == []
    await open_page(page, debug_site, "/twentyq/", viewport, scheme)
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await finish_twentyq(page)
    assert await violations(page) == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
@pytest.mark.parametrize("path", ["/bookshop/", "/geography/", "/twentyq/"])
async def test_how_this_page_works_opened_has_no_axe_violation_and_no_sideways_scroll(
    page, debug_site, path, viewport
):
    await open_page(page, debug_site, path, viewport)
    await page.locator("#how-it-works summary").click()
    await page.locator("#how-it-works pre").first.wait_for()
    # Each code block scrolls sideways inside itself, so the keyboard must reach it (scrollable-region-focusable).
    assert await violations(page) == []
    assert await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


async def test_the_consent_tables_go_on_from_the_purpose_their_summary_says(page, debug_site):
    for path, panel in (("/twentyq/", "#manifest-plain"), ("/geography/", "#asks")):
        await page.goto(debug_site.url + path)
        await page.locator(f"{panel} summary").click()
        labels = await page.locator(f"{panel} dt").all_text_contents()
        assert labels and "Purpose" not in labels, path


async def bottom_of(page, selector):
    box = await page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["y"] + box["height"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "375x740"])
async def test_geographys_question_with_its_picture_answer_and_ways_in_are_on_the_first_screen(
    page, debug_site, viewport
):
    await open_page(page, debug_site, "/geography/", viewport)
    for selector in (
        "#asks summary",
        "#clue",
        "#question",
        "#answer",
        "#answer-button",
        "#wallet-link",
        "#link-needs",
    ):
        assert await bottom_of(page, selector) <= viewport["height"], selector
    # The first question's own picture, drawn and large enough to see the place on it.
    assert await page.evaluate("() => document.querySelector('#clue').naturalWidth") > 0
    assert (await page.locator("#clue").bounding_box())["width"] >= 100


async def test_each_geography_question_shows_its_own_place_circled(page, debug_site):
    await open_page(page, debug_site, "/geography/", DESKTOP)
    seen = [await page.locator("#clue").get_attribute("src")]
    for round_number in (2, 3):
        await page.get_by_label("Your answer").fill("Atlantis")
        await page.get_by_role("button", name="Answer", exact=True).click()
        await page.locator("#round", has_text=str(round_number)).wait_for(timeout=15000)
        seen.append(await page.locator("#clue").get_attribute("src"))
        await page.wait_for_function("() => document.querySelector('#clue').complete")
        assert await page.evaluate("() => document.querySelector('#clue').naturalWidth") > 0
        assert await page.locator("#clue").is_visible()
    # Two questions may ask about one country (its capital and a landmark): the pictures are named, not counted.
    assert all("/geography/clues/" in src for src in seen), seen


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "375x740"])
async def test_twenty_questions_first_move_and_ways_in_are_on_the_first_screen(page, debug_site, viewport):
    await open_page(page, debug_site, "/twentyq/", viewport)
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    for selector in ("#manifest-plain summary", "#new-ai-asks", "#way-status"):
        assert await bottom_of(page, selector) <= viewport["height"], selector
    change = page.locator("#change-way")
    if await change.is_visible():  # the ways fold into the status line; "Change" opens them
        assert await bottom_of(page, "#change-way") <= viewport["height"]
        await change.click()
    for index in range(await page.locator("#ways button.way").count()):
        assert await bottom_of(page, f"#ways button.way >> nth={index}") <= viewport["height"]


async def test_home_page_offers_one_play_per_demo_and_the_other_ways_in_behind_how_it_works(page, debug_site):
    await page.goto(debug_site.url + "/")
    demos = page.locator("ul.demos > li")
    assert await demos.count() == 3
    urls = []
    for index in range(3):
        links = demos.nth(index).get_by_role("link")
        assert await links.count() == 1 and (await links.text_content()).startswith("Play")
        urls.append(await links.get_attribute("href"))
    assert not await page.locator(".ways-explained").is_visible()  # behind "Other ways to try them"
    await page.get_by_text("Other ways to try them").click()
    explained = await page.locator(".ways-explained").text_content()
    for words in (
        "no AI at all",
        "a script answers, no AI runs",
        "Ollama or LM Studio",
        "Try the demos with your own local model",
        "bringyourownagent://",
    ):
        assert words in explained
    tries = page.locator("#ways-in .try a[data-testwallet]")
    assert [await tries.nth(index).get_attribute("href") for index in range(3)] == [
        url + "?testwallet=1" for url in urls
    ]
    await tries.nth(2).click()
    await page.locator(".testwallet-banner").wait_for(timeout=15000)
    assert "not from an AI" in await page.locator(".testwallet-banner").text_content()


async def tab_to(page, selector, limit=80):
    """Press Tab until the element `selector` has the focus (at most `limit` times)."""
    for _ in range(limit):
        await page.keyboard.press("Tab")
        if await page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    pytest.fail(f"Tab never reached {selector}")


async def test_geography_is_played_with_the_keyboard_alone_and_its_verdict_is_announced(page, debug_site):
    from tests.geography.conftest import right_answer

    await page.goto(debug_site.url + "/geography/")
    assert await page.locator("#verdict").get_attribute("aria-live") == "polite"
    await tab_to(page, "#answer")
    await page.keyboard.type(await right_answer(page))
    await page.keyboard.press("Enter")
    await page.locator('#verdict[data-verdict="correct"]').wait_for(timeout=15000)


async def test_twenty_questions_is_played_with_the_keyboard_alone_and_its_moves_are_announced(
    page, debug_site
):
    await page.goto(debug_site.url + "/twentyq/")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    for live in ("#pending", "#stream-text"):
        assert await page.locator(live).get_attribute("aria-live") == "polite", live
    await tab_to(page, "#new-ai-asks")
    await page.keyboard.press("Space")
    await page.locator("#answer-form:not([hidden])").wait_for(timeout=10000)
    asked = await page.locator("#pending").text_content()
    await tab_to(page, "#answer-no")
    await page.keyboard.press("Enter")
    await page.locator("#history li").first.wait_for(timeout=10000)
    assert asked.removeprefix("The site asks: ") in await page.locator("#history li").first.text_content()


async def test_the_bookshop_is_used_with_the_keyboard_alone_and_its_answers_are_announced(page, debug_site):
    await page.goto(debug_site.url + "/bookshop/")
    assert await page.locator("#transcript").get_attribute("aria-live") == "polite"
    await tab_to(page, "#catalog button")
    title = await page.evaluate(
        "() => document.activeElement.closest('li').querySelector('.title').textContent"
    )
    # Enter adds the book in place: the page says so beside the button, which keeps the focus.
    await page.keyboard.press("Enter")
    await page.locator("#catalog .added", has_text=f"Added “{title}”").wait_for(timeout=15000)
    assert (
        await page.evaluate("() => document.activeElement.closest('li').querySelector('.title').textContent")
        == title
    )
    await page.goto(debug_site.url + "/bookshop/basket/")
    assert title in await page.locator("main").text_content()
