"""
The basket page with Django's test client: each book with its cover, copies to change, a way
to remove it, and a checkout that says it is a demo.
"""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def shopper(catalog):
    client = Client()
    for slug in ("dune", "jane-eyre"):
        client.post("/bookshop/basket/add/", {"slug": slug, "next": "/bookshop/basket/"})
    return client


def page(client):
    return client.get("/bookshop/basket/").content.decode()


def test_the_basket_shows_each_books_cover_title_and_copies(shopper):
    shown = page(shopper)
    assert 'src="/bookshop/covers/dune.svg"' in shown and 'src="/bookshop/covers/jane-eyre.svg"' in shown
    assert "Dune" in shown and "Jane Eyre" in shown and "Total: <strong>£" in shown


def test_copies_can_be_changed_and_a_book_removed(shopper):
    response = shopper.post("/bookshop/basket/change/", {"slug": "dune", "quantity": "3"}, follow=True)
    shown = response.content.decode()
    assert "“Dune”: 3 copies in your basket." in shown
    assert '<option value="3" selected>3</option>' in shown
    response = shopper.post(
        "/bookshop/basket/change/", {"slug": "jane-eyre", "quantity": "1", "remove": "1"}, follow=True
    )
    shown = response.content.decode()
    assert "Removed “Jane Eyre” from your basket." in shown
    assert "/bookshop/covers/jane-eyre.svg" not in shown and "/bookshop/covers/dune.svg" in shown


@pytest.mark.parametrize(
    "change",
    [
        {"slug": "dune", "quantity": "11"},
        {"slug": "dune", "quantity": "-1"},
        {"slug": "dune", "quantity": "many"},
        {"slug": "no-such-book", "quantity": "1"},
        {"slug": "dune"},
    ],
)
def test_a_bad_change_is_refused_with_a_clear_message_and_loses_nothing(shopper, change):
    before = shopper.session["bookshop_basket"]
    response = shopper.post("/bookshop/basket/change/", change, follow=True)
    assert (
        "That change could not be made: choose 1 to 10 copies of a book in the basket."
        in response.content.decode()
    )
    assert shopper.session["bookshop_basket"] == before


def test_the_checkout_says_it_is_a_demo_and_keeps_the_basket(shopper):
    before = shopper.session["bookshop_basket"]
    response = shopper.post("/bookshop/basket/checkout/", follow=True)
    assert "This shop is a demo: nothing was ordered and nothing was charged." in response.content.decode()
    assert shopper.session["bookshop_basket"] == before


def test_an_empty_basket_offers_the_way_back_to_the_books(catalog):
    shown = page(Client())
    assert 'id="basket-empty"' in shown and 'href="/bookshop/"' in shown and 'id="checkout"' not in shown
