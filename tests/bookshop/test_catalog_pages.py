"""The bookshop lists its catalog a page at a time, and every page works with no JavaScript."""

import json
from pathlib import Path

import pytest

from sites.bookshop.views import CATALOG_PAGE_SIZE

pytestmark = [pytest.mark.browser, pytest.mark.live]

CATALOG = json.loads(
    (Path(__file__).resolve().parents[2] / "sites" / "bookshop" / "catalog.json").read_text()
)


@pytest.fixture
async def no_script_page(browser):
    context = await browser.new_context(java_script_enabled=False)
    yield await context.new_page()
    await context.close()


async def test_more_books_links_walk_the_whole_catalog_a_page_at_a_time_without_javascript(
    no_script_page, daphne_server
):
    page = no_script_page
    await page.goto(daphne_server.url + "/bookshop/")
    seen = []
    while True:
        titles = await page.locator("#catalog .title").all_text_contents()
        assert 0 < len(titles) <= CATALOG_PAGE_SIZE
        seen += titles
        more = page.get_by_role("link", name="More books")
        if not await more.count():
            break
        await more.click()
        await page.wait_for_load_state()
    assert sorted(seen) == sorted(book["title"] for book in CATALOG)
    assert len(seen) == len(set(seen))
    assert await page.locator("#catalog-range").text_content() == (
        f"Books {len(seen) - len(titles) + 1}–{len(seen)} of {len(seen)}"
    )
    await page.get_by_role("link", name="Previous books").click()
    await page.wait_for_load_state()
    assert await page.locator("#catalog .title").count() == CATALOG_PAGE_SIZE


async def test_the_search_form_works_without_javascript_on_any_catalog_page(no_script_page, daphne_server):
    page = no_script_page
    await page.goto(daphne_server.url + "/bookshop/?page=2")
    await page.locator("select[name=mood]").select_option("epic")
    await page.locator("input[name=q]").fill("Frank Herbert")
    await page.get_by_role("button", name="Search").click()
    await page.wait_for_load_state()
    assert await page.locator("#search-results .title").all_text_contents() == ["Dune"]


async def test_a_page_number_past_the_end_shows_the_last_page_and_a_bad_one_the_first(
    no_script_page, daphne_server
):
    page = no_script_page
    await page.goto(daphne_server.url + "/bookshop/?page=999")
    assert await page.get_by_role("link", name="More books").count() == 0
    await page.goto(daphne_server.url + "/bookshop/?page=nonsense")
    assert await page.get_by_role("link", name="Previous books").count() == 0
    assert await page.locator("#catalog .title").count() == CATALOG_PAGE_SIZE
