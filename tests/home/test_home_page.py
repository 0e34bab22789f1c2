"""The index page in Debian's Chromium."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def test_home_page_lists_demos_and_reports_no_wallets(daphne_server, page):
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    response = await page.goto(daphne_server.url + "/")
    assert response.status == 200
    await page.locator("html[data-wallets-checked=true]").wait_for(timeout=15000)
    assert await page.locator('[data-wallet="aiwallet"] .status').text_content() == "not installed"
    assert await page.locator('[data-wallet="byoa"] .status').text_content() == "not installed"
    assert await page.get_by_role("link", name="Play Bookshop", exact=True).count() == 1
    assert problems == []


async def test_home_page_has_a_strict_content_security_policy(daphne_server, page):
    response = await page.goto(daphne_server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "object-src 'none'" in policy


async def test_home_page_finds_a_wallet_that_announces_itself(daphne_server, page):
    # A stand-in provider that answers aiwallet:request, as the spec's discovery says.
    await page.add_init_script(
        """
        window.addEventListener('aiwallet:request', () => {
          window.dispatchEvent(new CustomEvent('aiwallet:announce', {detail: {isAIWallet: true}}));
        });
        window.byoa = {};
        """
    )
    await page.goto(daphne_server.url + "/")
    await page.locator("html[data-wallets-checked=true]").wait_for(timeout=15000)
    assert await page.locator('[data-wallet="aiwallet"] .status').text_content() == "found"
    assert await page.locator('[data-wallet="byoa"] .status').text_content() == "found"


async def test_on_a_phone_every_demo_and_its_play_button_are_on_the_first_screen_in_plain_words(
    daphne_server, page
):
    await page.set_viewport_size({"width": 375, "height": 740})
    await page.goto(daphne_server.url + "/")
    demos = page.locator("ul.demos > li")
    assert await demos.count() == 3
    for index in range(3):
        play = await demos.nth(index).get_by_role("link", name="Play").bounding_box()
        assert play["y"] + play["height"] <= 740, index
    first_screen = await page.locator("h1").text_content() + await page.locator("ul.demos").text_content()
    for words in ("MCP", "BYOA", "audio.transcribe", "text.generate", "direct link", "stand-in", "manifest"):
        assert words not in first_screen, words
    assert all("…" not in code for code in await page.locator("code").all_text_contents())
    assert await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
