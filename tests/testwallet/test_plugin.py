"""Installing the package registers the test wallet's pytest plugin and its fixtures."""

from importlib.metadata import entry_points


def test_the_plugin_is_a_pytest11_entry_point():
    plugins = {entry.name: entry.value for entry in entry_points(group="pytest11")}
    assert plugins.get("testwallet") == "testwallet.plugin"


def test_the_plugin_gives_a_site_its_fixtures(pytestconfig):
    names = set(pytestconfig.pluginmanager.get_plugin("testwallet").__dict__) | set(
        pytestconfig.pluginmanager.get_plugin("testwallet-aiwallet").__dict__
    ) | set(pytestconfig.pluginmanager.get_plugin("testwallet-byoa").__dict__) | set(
        pytestconfig.pluginmanager.get_plugin("testwallet-languagemodel").__dict__
    )
    assert {"daphne_server", "direct_wallet", "aiwallet", "byoa_extension", "builtin_model"} <= names


def test_the_stub_scripts_ship_inside_the_package():
    from testwallet.aiwallet import aiwallet_script
    from testwallet.extension import script_path

    assert aiwallet_script().read_text().count("aiwallet:announce") >= 1
    assert "byoa:ready" in script_path().read_text()
    from testwallet.languagemodel import script_path as languagemodel_script

    assert "LanguageModel" in languagemodel_script().read_text()
