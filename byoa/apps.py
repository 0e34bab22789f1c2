from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Literal

from django.apps import AppConfig
from django.core.signals import setting_changed
from django.db.models.signals import post_delete

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

    def __init__(self, app_name: str, app_module: ModuleType | None) -> None:
        super().__init__(app_name, app_module)
        # A server configured for links no wallet accepts refuses every POST /byoa/code
        # the same way: said once per process at ERROR, it does not flood the log.
        self._endpoint_refusal_logged = False

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.core.checks import register

        from byoa import checks  # noqa: F401  (registers the system checks)
        from byoa.conf import Settings
        from byoa.hub import Hub
        from byoa.models import Pairing
        from byoa.pairings import forget_deleted, forget_logged_out
        from visitor_ai.speedups.checks import check_speedups

        # The hub's transport and caches read VISITOR_AI_SPEEDUPS; a site may install byoa alone.
        register(check_speedups)

        self.settings = Settings()
        setting_changed.connect(self.settings.forget, dispatch_uid=f"byoa-settings-{id(self)}")
        post_delete.connect(forget_deleted, sender=Pairing, dispatch_uid=f"byoa-pairing-deleted-{id(self)}")
        user_logged_out.connect(forget_logged_out, dispatch_uid=f"byoa-logged-out-{id(self)}")
        self.manifests = None
        self.hub = Hub()

    def endpoint_refusal_level(self) -> Literal["error", "debug"]:
        """Return the level to log a refused link's endpoint at: ERROR once per process, then DEBUG."""
        if self._endpoint_refusal_logged:
            return "debug"
        self._endpoint_refusal_logged = True
        return "error"
