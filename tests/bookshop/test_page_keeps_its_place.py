"""
The bookshop as a visitor review used it, in Chromium on a real daphne: "Add to basket"
keeps the visitor where they were (the scroll, the focus) and says what the basket holds,
with and without the page's script; "Connect your AI" leaves the focus on the question;
the AI's reply reads as paragraphs and a list with the books linked.
"""

import json
from pathlib import Path

import pytest

from testwallet.aiwallet import ToolCall

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 375, "height": 740}
CATALOG = Path(__file__).resolve().parents[2] / "sites" / "bookshop" / "catalog.json"


async def focused_text(page):
    return await page.evaluate("() => document.activeElement?.textContent ?? ''")


async def test_add_to_basket_on_a_phone_keeps_the_place_and_the_focus_and_says_what_the_basket_holds(
    page, daphne_server
):
    await page.set_viewport_size(PHONE)
    await page.goto(daphne_server.url + "/bookshop/")
    assert await page.locator("#basket-count").text_content() == "(0)"
    card = page.locator("#catalog > li").nth(7)
    title = await card.locator(".title").text_content()
    button = card.get_by_role("button", name=f"Add to basket ({title})")
    await button.focus()  # scrolls it into view, as a Tab would
    scrolled = await page.evaluate("() => scrollY")
    assert scrolled > 1000
    await page.keyboard.press("Enter")
    status = card.locator(".added")
    await status.filter(has_text="Added").wait_for(timeout=10000)
    assert await status.text_content() == f"Added “{title}” to your basket (1 book in it)."
    assert await status.get_attribute("role") == "status"
    # Where the visitor was (a reload went from 2,441 px to 0); covers loading nearby and the
    # confirmation's own line may nudge it by a line or two.
    assert abs(await page.evaluate("() => scrollY") - scrolled) < 120
    assert (await focused_text(page)).startswith("Add to basket")
    assert await page.locator("#basket-count").text_content() == "(1)"
    await page.keyboard.press("Enter")  # the same button again: a second copy
    await status.filter(has_text="2 books").wait_for(timeout=10000)
    assert await page.locator("#basket-count").text_content() == "(2)"
    await page.goto(daphne_server.url + "/bookshop/basket/")
    assert title in await page.locator("#basket").text_content()


async def test_a_failed_add_to_basket_is_said_beside_its_button_in_the_error_colour_not_the_success_green(
    page, daphne_server
):
    await page.goto(daphne_server.url + "/bookshop/")
    card = page.locator("#catalog > li").first
    await page.route("**/bookshop/basket/add/", lambda route: route.abort())
    await card.get_by_role("button", name="Add to basket").click()
    status = card.locator(".added", has_text="Could not add it")
    await status.wait_for(timeout=10000)
    assert "press Add to basket again" in await status.text_content()
    colours = await page.evaluate(
        "() => { const root = getComputedStyle(document.documentElement); const s = document.createElement('span');"
        " document.body.append(s); const as = (name) => { s.style.color = root.getPropertyValue(name); "
        " return getComputedStyle(s).color; }; const out = [as('--bad'), as('--good')]; s.remove(); return out; }"
    )
    shown = await status.evaluate("(e) => getComputedStyle(e).color")
    assert shown == colours[0] and shown != colours[1]
    await page.unroute("**/bookshop/basket/add/")
    await card.get_by_role("button", name="Add to basket").click()
    await card.locator(".added", has_text="Added").wait_for(timeout=10000)
    assert await card.locator(".added").evaluate("(e) => getComputedStyle(e).color") == colours[1]


async def test_without_the_script_add_to_basket_comes_back_to_the_books_card_and_says_so(
    browser, daphne_server
):
    context = await browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        page = await context.new_page()
        await page.goto(daphne_server.url + "/bookshop/?page=2")
        card = page.locator("#catalog > li").nth(5)
        title = await card.locator(".title").text_content()
        await card.get_by_role("button", name=f"Add to basket ({title})").click()
        await page.wait_for_url("**/bookshop/?page=2#catalog-*")
        card = page.locator("#catalog > li").nth(5)
        assert (
            await card.locator(".added").text_content() == f"Added “{title}” to your basket (1 book in it)."
        )
        assert await page.locator("#basket-count").text_content() == "(1)"
        box = await card.locator(".added").bounding_box()
        assert 0 <= box["y"] < PHONE["height"]  # the browser is at the card, not at the top
    finally:
        await context.close()


async def test_connect_your_ai_by_keyboard_leaves_the_focus_on_the_question(aiwallet, page, daphne_server):
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    await page.locator('ai-connect-widget[data-state="disconnected"]').wait_for(timeout=15000)
    await page.get_by_role("button", name="Connect your AI").focus()
    await page.keyboard.press("Enter")
    await page.locator('ai-connect-widget[data-state="connected"]').wait_for(timeout=15000)
    await page.wait_for_function("() => document.activeElement?.id === 'question'", timeout=15000)


async def test_the_ais_reply_reads_as_paragraphs_and_a_list_with_each_book_linked(
    aiwallet, page, daphne_server
):
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"query": "Frank Herbert"})])
    aiwallet.reply(
        ["Two for you:\n- **Dune** by Frank Herbert [dune]\n", "- <b>Emma</b> [no such]\n\nEnjoy!"]
    )
    await page.get_by_role("button", name="Connect your AI").click()
    await page.locator("#question").fill("Herbert?")
    await page.get_by_role("button", name="Ask", exact=True).click()
    # Stop hides when the whole conversation has ended: two chats with the wallet and the shop's
    # search between them, which took more than 5 s on a loaded machine (the bound this had).
    await page.locator("#stop").wait_for(state="hidden", timeout=20000)
    reply = page.locator(".turn.assistant .text").last
    await reply.locator("p", has_text="Enjoy!").wait_for(timeout=5000)
    assert await reply.locator("p").all_text_contents() == ["Two for you:", "Enjoy!"]
    assert await reply.locator("li").all_text_contents() == [
        "Dune by Frank Herbert details",
        "<b>Emma</b> [no such]",
    ]
    assert await reply.locator("strong").text_content() == "Dune"
    assert await reply.locator("a").get_attribute("href") == "/bookshop/books/dune/"
    assert await reply.locator("b").count() == 0  # the model's markup stays text


async def test_a_suggestion_searches_the_shop_without_an_ai_and_asks_your_ai_once_connected(
    aiwallet, page, daphne_server
):
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    suggestions = page.get_by_role("form", name="Browse by mood:")
    await suggestions.get_by_role("button", name="Something funny").click()
    await page.wait_for_url("**/bookshop/?mood=funny#search-results", timeout=15000)
    found = page.locator("#search-results > li")
    assert await found.count() > 0
    assert all("funny" in moods for moods in await found.locator(".moods").all_text_contents())

    aiwallet.reply("Try **Gilead**.")
    await page.get_by_role("button", name="Connect your AI").click()
    await page.locator('ai-connect-widget[data-state="connected"]').wait_for(timeout=15000)
    suggestions = page.get_by_role("form", name="Or ask:")
    await suggestions.get_by_role("button", name="A calm book for tonight").click()
    await page.locator(".turn.assistant strong", has_text="Gilead").wait_for(timeout=15000)
    await page.locator("#stop").wait_for(state="hidden", timeout=15000)
    assert await page.locator(".turn.user").all_text_contents() == ["A calm book for tonight"]
    assert aiwallet.chats[-1].messages[-1] == {"role": "user", "content": "A calm book for tonight"}
    assert page.url.endswith("/bookshop/?mood=funny#search-results")  # asked in place, no page load
    assert await focused_id(page) == "question"


async def test_on_a_phone_an_answer_is_read_from_its_start_with_the_question_box_at_hand(
    aiwallet, page, daphne_server
):
    await page.set_viewport_size(PHONE)
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/bookshop/")
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm", "limit": 5})])
    aiwallet.reply("Calm books:\n" + "\n".join(f"- Book {n} [dune]" for n in range(1, 9)))
    await page.get_by_role("button", name="Connect your AI").click()
    await page.locator('ai-connect-widget[data-state="connected"]').wait_for(timeout=15000)
    await page.locator("#question").fill("A calm book")
    await page.keyboard.press("Enter")
    await page.locator(".assistant-cards .title").nth(4).wait_for(timeout=15000)
    await page.locator(".turn.assistant li", has_text="Book 8").wait_for(timeout=15000)
    await page.locator("#ask-button:enabled").wait_for(timeout=15000)
    # The answer (and five cards) is taller than the screen: its start, not its end, is in view...
    asked = await page.locator(".turn.user").bounding_box()
    assert 0 <= asked["y"] < PHONE["height"] / 2
    # ...and the question box, focused for the next question, is on screen too.
    assert await focused_id(page) == "question"
    box = await page.locator("#question").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


async def focused_id(page):
    return await page.evaluate("() => document.activeElement?.id ?? ''")


async def test_every_covers_title_stays_inside_its_frame(page, daphne_server):
    """Each catalog book's cover, drawn by Chromium: every title line ends inside the frame (x 12 to 228)."""
    slugs = [book["slug"] for book in json.loads(CATALOG.read_text())]
    await page.goto(daphne_server.url + "/bookshop/basket/")
    overflowing = await page.evaluate(
        """async (slugs) => {
            const out = [];
            for (const slug of slugs) {
                const text = await (await fetch(`/bookshop/covers/${slug}.svg`)).text();
                const svg = document.importNode(
                    new DOMParser().parseFromString(text, 'image/svg+xml').documentElement, true);
                svg.setAttribute('width', '240');
                document.body.append(svg);
                for (const line of svg.querySelectorAll('g text')) {
                    const box = line.getBBox();
                    if (box.x < 12 || box.x + box.width > 228) out.push(`${slug}: ${line.textContent}`);
                }
                svg.remove();
            }
            return out;
        }""",
        slugs,
    )
    assert len(slugs) > 100
    assert overflowing == []


async def test_on_a_phone_a_books_page_gives_its_words_the_width_and_cards_keep_covers_small(
    page, daphne_server
):
    await page.set_viewport_size(PHONE)
    await page.goto(daphne_server.url + "/bookshop/books/dune/")
    title = await page.locator("article.book h1").bounding_box()
    assert title["width"] >= 300  # not a 180 px column beside the cover
    await page.goto(daphne_server.url + "/bookshop/")
    card = await page.locator("#catalog > li").first.bounding_box()
    cover = await page.locator("#catalog > li .cover").first.bounding_box()
    assert (
        cover["height"] <= card["height"]
        and cover["width"] * cover["height"] <= card["width"] * card["height"] / 3
    )
    assert await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
