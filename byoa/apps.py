"""The ``byoa`` app: its system checks and the signals it listens to."""

from typing import Literal

from django.apps import AppConfig


class ByoaConfig(AppConfig):
    """Bring your own agent: the server side of the direct link and of server -> wallet calls."""

    name = "byoa"
    verbose_name = "Bring your own agent"
    default_auto_field = "django.db.models.BigAutoField"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # A server whose links no wallet accepts refuses every POST /byoa/code the same way:
        # said once per process at ERROR, it does not flood the log.
        self._endpoint_refusal_logged = False

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_delete

        from byoa import checks  # noqa: F401  (registers the system checks)
        from byoa.models import Pairing
        from byoa.pairing.pairings import forget_deleted, forget_logged_out

        post_delete.connect(forget_deleted, sender=Pairing, dispatch_uid="byoa-pairing-deleted")
        user_logged_out.connect(forget_logged_out, dispatch_uid="byoa-logged-out")

    def endpoint_refusal_level(self) -> Literal["error", "debug"]:
        """Return the level to log a refused link's endpoint at: ERROR once per process, then DEBUG."""
        if self._endpoint_refusal_logged:
            return "debug"
        self._endpoint_refusal_logged = True
        return "error"
