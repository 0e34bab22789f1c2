"""`?testwallet=1` injects the stub wallets, in DEBUG only, labelled as not an AI."""

import pytest

pytestmark = pytest.mark.django_db


def test_testwallet_parameter_injects_the_stubs_and_a_label_in_debug(client, settings):
    settings.DEBUG = True
    page = client.get("/?testwallet=1").content.decode()
    assert "/static/testwallet/aiwallet.js" in page
    assert "/static/testwallet/byoa.js" in page
    # its clip reading, manifest rules, consent and checks of a call first
    assert (
        page.index("/static/testwallet/byoa-clip.js")
        < page.index("/static/testwallet/byoa-manifest.js")
        < page.index("/static/testwallet/byoa-consent.js")
        < page.index("/static/testwallet/byoa-checks.js")
        < page.index("/static/testwallet/byoa.js")
    )
    assert "not from an AI" in page


def test_testwallet_choice_sticks_in_a_cookie_until_turned_off(client, settings):
    settings.DEBUG = True
    client.get("/?testwallet=1")
    assert "testwallet/aiwallet.js" in client.get("/bookshop/").content.decode()
    client.get("/?testwallet=0")
    assert "testwallet/aiwallet.js" not in client.get("/bookshop/").content.decode()


def test_testwallet_parameter_does_nothing_without_debug(client, settings):
    settings.DEBUG = False
    page = client.get("/?testwallet=1").content.decode()
    assert "/static/testwallet/" not in page
    assert "not from an AI" not in page


def test_turning_the_test_wallet_off_stores_no_session_for_a_visitor_who_never_turned_it_on(client, settings):
    from django.contrib.sessions.models import Session

    settings.DEBUG = True
    client.get("/?testwallet=0")
    assert Session.objects.count() == 0 and "sessionid" not in client.cookies
