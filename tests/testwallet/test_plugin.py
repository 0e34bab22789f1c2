"""Installing the package registers the test wallet's pytest plugin and its fixtures."""

import inspect
from importlib.metadata import entry_points

import pytest


def test_the_plugin_is_a_pytest11_entry_point():
    plugins = {entry.name: entry.value for entry in entry_points(group="pytest11")}
    assert plugins.get("testwallet") == "testwallet.plugin"


def test_the_plugin_gives_a_site_its_fixtures(pytestconfig):
    names = (
        set(pytestconfig.pluginmanager.get_plugin("testwallet").__dict__)
        | set(pytestconfig.pluginmanager.get_plugin("testwallet-aiwallet").__dict__)
        | set(pytestconfig.pluginmanager.get_plugin("testwallet-byoa").__dict__)
        | set(pytestconfig.pluginmanager.get_plugin("testwallet-languagemodel").__dict__)
    )
    assert {
        "daphne_server",
        "direct_wallet",
        "aiwallet",
        "byoa_extension",
        "builtin_model",
    } <= names
    assert "byoa_hub" not in names  # byoa keeps no per-process hub to reset between tests


def test_the_stub_scripts_ship_inside_the_package():
    from testwallet import aiwallet, extension

    assert aiwallet.script_path().read_text().count("aiwallet:announce") >= 1
    assert "byoa:ready" in extension.script_path().read_text()
    from testwallet.languagemodel import script_path as languagemodel_script

    assert "LanguageModel" in languagemodel_script().read_text()


def test_both_wallet_drivers_speak_one_vocabulary():
    from testwallet import aiwallet, extension

    assert aiwallet.ScriptError is extension.ScriptError
    assert aiwallet.Consent is extension.Consent
    for name in ("install", "wait_until", "check"):
        assert callable(getattr(aiwallet.AiWalletStub, name)) and callable(
            getattr(extension.ByoaExtension, name)
        )
    assert inspect.signature(aiwallet.AiWalletStub.wait_until) == inspect.signature(
        extension.ByoaExtension.wait_until
    )


async def test_a_wait_that_times_out_says_what_did_not_happen(byoa_extension, aiwallet):
    def two_calls(driver):
        return len(getattr(driver, "calls", getattr(driver, "chats", []))) == 2

    for driver in (byoa_extension, aiwallet):
        with pytest.raises(TimeoutError, match=r"two_calls did not become true within 0\.01 s"):
            await driver.wait_until(two_calls, timeout=0.01)


def test_both_wallet_drivers_take_the_visitors_consent_in_one_vocabulary():
    from testwallet.aiwallet import AiWalletStub, Consent
    from testwallet.extension import ByoaExtension

    for wallet in (AiWalletStub(), ByoaExtension()):
        assert wallet.consent is Consent.ALLOW
        wallet.consent = "decline"
        assert wallet.consent is Consent.DECLINE
        wallet.consent = "approve"  # AI Wallet's button, read as ALLOW
        assert wallet.consent is Consent.ALLOW
        wallet.consent = "no-answer"  # the BYOA stub's word, read as WAIT
        assert wallet.consent is Consent.WAIT
        with pytest.raises(ValueError, match="'maybe'"):
            wallet.consent = "maybe"
        assert wallet.consent is Consent.WAIT  # a refused word changes nothing
    aiwallet = AiWalletStub()
    aiwallet.approval = Consent.CLOSE  # the older name of the same attribute
    assert aiwallet.consent is Consent.CLOSE


def test_both_faces_of_the_browser_agent_speak_one_vocabulary():
    from testwallet.webmcp import BrowserAgent
    from testwallet.webmcp.sync import SyncBrowserAgent

    for name in ("new_page", "tools", "wait_for_tools", "call_tool"):
        async_face, sync_face = getattr(BrowserAgent, name), getattr(SyncBrowserAgent, name)
        assert inspect.iscoroutinefunction(async_face) and not inspect.iscoroutinefunction(sync_face)
        assert list(inspect.signature(async_face).parameters) == list(inspect.signature(sync_face).parameters)


def test_a_headless_run_drives_debians_headless_shell_when_it_is_installed(monkeypatch, tmp_path):
    from testwallet import chromium

    monkeypatch.delenv("CHROMIUM", raising=False)
    shell = tmp_path / "chromium-headless-shell"
    monkeypatch.setattr(chromium, "HEADLESS_SHELL", str(shell))
    assert chromium.chromium_executable() == chromium.FULL_CHROMIUM  # not installed
    shell.touch()
    assert chromium.chromium_executable() == str(shell)
    assert (
        chromium.chromium_executable(headless=False) == chromium.FULL_CHROMIUM
    )  # a window needs the browser
    monkeypatch.setenv("CHROMIUM", "/opt/chrome/chrome")
    assert chromium.chromium_executable() == "/opt/chrome/chrome"
    assert chromium.chromium_executable(headless=False) == "/opt/chrome/chrome"


def test_the_session_browser_is_the_one_chromium_executable_picks(browser_type_launch_args):
    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable

    assert browser_type_launch_args["executable_path"] == chromium_executable(
        headless=browser_type_launch_args.get("headless", True)
    )
    assert set(CHROMIUM_ARGS) <= set(browser_type_launch_args["args"])
