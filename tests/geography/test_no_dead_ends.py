"""
Geography offers no way that cannot work, in Chromium on a real daphne: with no extension in the
browser voice in this browser is not offered, the wallet app's way says what it needs before it is
pressed, and a failure is said under the answer box, in view on a phone, in the error colour.
"""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 375, "height": 740}


async def colour(page, selector, css):
    return await page.locator(selector).evaluate(f"(e) => getComputedStyle(e).{css}")


async def test_without_an_extension_voice_in_this_browser_is_not_offered(page, daphne_server):
    await page.goto(daphne_server.url + "/geography/")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    assert await page.locator("#voice").is_hidden()
    text = await page.locator("main").inner_text()
    assert "extension" not in text.split("How this page works")[0].lower()


async def test_the_wallet_apps_way_says_what_it_needs_before_it_is_pressed(page, daphne_server):
    await page.goto(daphne_server.url + "/geography/")
    link = page.get_by_role("button", name="Answer by voice with my AI wallet app")
    needs = page.locator("#link-needs")
    assert await needs.is_visible()
    assert "Needs a wallet app with your AI" in await needs.text_content()
    assert await link.get_attribute("aria-describedby") == "link-needs"
    assert await page.locator("#waiting").is_hidden()  # nothing is waited for before the press


async def test_a_failure_is_said_under_the_answer_box_in_view_and_in_the_error_colour(page, daphne_server):
    await page.set_viewport_size(PHONE)
    await page.goto(daphne_server.url + "/geography/")
    await page.route("**/geography/answer/", lambda route: route.abort())
    await page.get_by_label("Your answer").fill("Peru")
    await page.get_by_role("button", name="Answer", exact=True).click()
    notice = page.locator("#notice", has_text="The game could not be reached. Try again.")
    await notice.wait_for(timeout=15000)
    assert await notice.get_attribute("data-kind") == "error"
    box = await notice.bounding_box()
    answer = await page.locator("#answer").bounding_box()
    assert answer["y"] < box["y"] and box["y"] + box["height"] <= PHONE["height"]
    bad = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()")
    shown = await colour(page, "#notice", "color")
    expected = await page.evaluate(
        "(c) => { const s = document.createElement('span'); s.style.color = c; document.body.append(s);"
        " const v = getComputedStyle(s).color; s.remove(); return v; }",
        bad,
    )
    assert shown == expected
    assert await page.get_by_label("Your answer").input_value() == "Peru"  # nothing is lost
