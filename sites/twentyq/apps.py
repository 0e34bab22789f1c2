from django.apps import AppConfig


class TwentyQConfig(AppConfig):
    name = "sites.twentyq"
    label = "twentyq"
    verbose_name = "Twenty Questions demo"

    def ready(self):
        from sites.twentyq import checks  # noqa: F401  (registers the system checks)
