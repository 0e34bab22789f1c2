"""The site's own 404 and 500 pages: what happened in a visitor's words, in the site's look, and a way home."""

import pytest
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from tests.home.test_demo_pages import AXE, PHONE, violations


@pytest.mark.django_db
def test_a_missing_page_is_the_sites_own_404_with_a_way_home_and_to_each_game(settings):
    settings.DEBUG = False
    response = Client().get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "There is no page here" in page and "Not Found" not in page
    assert 'name="viewport"' in page  # legible on a phone
    for href in ('href="/"', 'href="/bookshop/"', 'href="/geography/"', 'href="/twentyq/"'):
        assert href in page, href
    assert "Back to the games" in page


@pytest.mark.django_db
def test_a_missing_book_is_the_same_404(settings):
    settings.DEBUG = False
    response = Client().get("/bookshop/books/no-such-book/")
    assert response.status_code == 404 and "There is no page here" in response.content.decode()


@pytest.mark.django_db
def test_a_server_error_is_the_sites_own_500_with_a_way_home(settings):
    settings.DEBUG = False
    response = server_error(RequestFactory().get("/bookshop/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in page and "Server Error" not in page
    assert 'name="viewport"' in page and 'href="/"' in page


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_the_404_page_on_a_phone_has_no_axe_violation_and_its_way_home_is_on_the_first_screen(
    page, daphne_server, scheme
):
    await page.emulate_media(color_scheme=scheme)
    await page.set_viewport_size(PHONE)
    await page.add_init_script(path=str(AXE))
    response = await page.goto(daphne_server.url + "/no/such/page/")
    assert response.status == 404
    assert await violations(page) == []
    home = await page.get_by_role("link", name="Back to the games").bounding_box()
    assert home["y"] + home["height"] <= PHONE["height"]
    await page.get_by_role("link", name="Back to the games").click()
    await page.wait_for_url(daphne_server.url + "/")
