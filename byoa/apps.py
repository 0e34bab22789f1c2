from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.core.signals import setting_changed

if TYPE_CHECKING:
    from byoa.conf import Settings
    from byoa.hub import Hub
    from byoa.manifests import Loaded


class ByoaConfig(AppConfig):
    """The ``byoa`` app: it owns what a process keeps for BYOA, so that no module keeps state of its own.

    ``settings`` (the BYOA values in force), ``manifests`` (the loaded
    manifests, ``byoa.manifests.loaded``) and ``hub`` (``byoa.hub``).
    """

    name = "byoa"
    verbose_name = "Bring your own agent"
    default_auto_field = "django.db.models.BigAutoField"

    #: The BYOA values in force (byoa.conf.byoa_setting reads them), cleared when BYOA changes.
    settings: Settings
    #: {name: (Manifest or None, problems)}, loaded at first use (byoa.manifests).
    manifests: dict[str, Loaded] | None
    #: This process's hub; tests install a fresh one each (testwallet.plugin's byoa_hub).
    hub: Hub

    def ready(self) -> None:
        from byoa import checks  # noqa: F401  (registers the system checks)
        from byoa.conf import Settings
        from byoa.hub import Hub

        self.settings = Settings()
        setting_changed.connect(self.settings.forget, dispatch_uid=f"byoa-settings-{id(self)}")
        self.manifests = None
        self.hub = Hub()
