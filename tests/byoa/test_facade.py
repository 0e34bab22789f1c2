"""byoa's facade: the names a site imports from ``byoa``, loaded on first use, and the request's pairing."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

import byoa
from byoa import calls, exceptions
from byoa.models import Pairing
from byoa.pairing import describe, manifests, pairings, visitor_ids
from tests.byoa.conftest import a_pairing


def test_each_public_name_is_the_object_of_the_module_behind_it():
    assert byoa.call_wallet is calls.call_wallet and byoa.stream_wallet is calls.stream_wallet
    assert byoa.aget_pairing is pairings.aget_pairing
    assert byoa.get_manifest is manifests.get_manifest and byoa.Manifest is manifests.Manifest
    # byoa.pairing.describe is the module (imported above): the facade's function has its own name.
    assert byoa.describe_manifest is describe.describe_manifest
    for name in exceptions.__all__:
        assert getattr(byoa, name) is getattr(exceptions, name)


def test_the_facade_serves_exactly_the_names_it_declares_and_type_checkers_see_the_same():
    assert set(byoa.__all__) <= set(dir(byoa))
    for name in byoa.__all__:
        assert getattr(byoa, name) is not None
    tree = ast.parse(Path(byoa.__file__).read_text())
    [checking] = [
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    seen = {alias.asname or alias.name for node in checking.body for alias in node.names}
    assert seen == set(byoa.__all__)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        byoa.nothing_here  # noqa: B018


def test_every_exception_has_one_root_and_keeps_its_nearest_base():
    from django.core.exceptions import ImproperlyConfigured

    for name in ("EndpointRefused", "ManifestError", "NotAClip", "NotJSON", "RateLimited", "UnknownManifest"):
        assert issubclass(getattr(byoa, name), byoa.ByoaError)
    assert issubclass(byoa.ManifestError, ImproperlyConfigured) and issubclass(
        byoa.EndpointRefused, ImproperlyConfigured
    )
    assert issubclass(byoa.UnknownManifest, LookupError)
    assert issubclass(byoa.NotJSON, ValueError) and issubclass(byoa.NotAClip, ValueError)


def test_importing_the_package_imports_no_django_and_no_models():
    # Django imports byoa while it loads INSTALLED_APPS, before models may be imported.
    code = (
        "import sys, byoa;"
        " print(sorted(m for m in sys.modules if m == 'django' or m.startswith(('django.', 'byoa.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- aget_pairing ------------------------------------------------------------------


async def a_request(visitor=None):
    request = RequestFactory().get("/")
    request.session = SessionStore()
    if visitor is not None:
        await request.session.aset(visitor_ids.SESSION_KEY, visitor)
    return request


@pytest.mark.django_db(transaction=True)
async def test_a_browser_session_that_never_asked_for_a_code_has_no_pairing():
    await a_pairing("visitor-a")
    request = await a_request()
    assert await byoa.aget_pairing(request, "geo") is None
    assert request.session.session_key is None  # and nothing was created for it


@pytest.mark.django_db(transaction=True)
async def test_the_pairing_is_this_browser_sessions_for_this_manifest_only():
    mine = await a_pairing("visitor-a")
    await a_pairing("visitor-b")
    await a_pairing("visitor-a", manifest_name="quiz")
    await a_pairing("visitor-a", channel_name="x", status=Pairing.Status.REVOKED)
    assert (await byoa.aget_pairing(await a_request("visitor-a"), "geo")).pk == mine.pk
    assert await byoa.aget_pairing(await a_request("visitor-c"), "geo") is None


@pytest.mark.django_db(transaction=True)
async def test_with_connected_a_pairing_whose_wallet_is_away_is_none():
    await a_pairing("visitor-a", channel_name="")
    request = await a_request("visitor-a")
    assert await byoa.aget_pairing(request, "geo") is not None
    assert await byoa.aget_pairing(request, "geo", connected=True) is None


@pytest.mark.django_db(transaction=True)
async def test_with_connected_a_pairing_whose_wallet_is_connected_and_seen_lately_is_returned():
    paired = await a_pairing("visitor-a", channel_name="specific.fresh!2")
    assert (await byoa.aget_pairing(await a_request("visitor-a"), "geo", connected=True)).pk == paired.pk
