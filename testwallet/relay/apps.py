from importlib import import_module
from typing import cast

from django.apps import AppConfig, apps
from django.utils.module_loading import module_has_submodule

from testwallet.relay.scripted import Player

#: The module of an installed app that holds its scripted player (see testwallet.relay.scripted).
PLAYERS_MODULE = "players"


class RelayConfig(AppConfig):
    """
    The `?testwallet=1` stand-ins' model relay and its middleware, DEBUG only. A
    site adds this app to INSTALLED_APPS, `testwallet.relay.middleware.TestWalletMiddleware`
    to MIDDLEWARE, and `testwallet.relay.urls` to its URLs when DEBUG is on.
    """

    name = "testwallet.relay"
    label = "testwallet_relay"
    verbose_name = "Test wallet relay (DEBUG only)"
    #: Each installed app's scripted player, in INSTALLED_APPS order; found in ready().
    players: tuple[Player, ...] = ()

    def ready(self) -> None:
        from testwallet.relay import checks  # noqa: F401  (registers the system checks)

        self.players = tuple(find_players())


def find_players() -> list[Player]:
    """Return the `answer` of every installed app's players module, as mcp_server finds tools.py."""
    found = []
    for config in apps.get_app_configs():
        # What django.utils.module_loading.autodiscover_modules does, keeping what each module holds.
        if module_has_submodule(config.module, PLAYERS_MODULE):
            found.append(import_module(f"{config.name}.{PLAYERS_MODULE}").answer)
    return found


def installed_players() -> tuple[Player, ...]:
    """Return the installed apps' scripted players, as the relay's app config found them."""
    return cast(RelayConfig, apps.get_app_config("testwallet_relay")).players
