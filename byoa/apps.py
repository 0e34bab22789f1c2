from django.apps import AppConfig


class ByoaConfig(AppConfig):
    name = "byoa"
    verbose_name = "Bring your own agent"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from byoa import checks  # noqa: F401  (registers the system checks)
