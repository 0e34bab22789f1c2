from django.apps import AppConfig


class VisitorAiConfig(AppConfig):
    """The browser library, served from this app's ``static/``."""

    name = "visitor_ai"
    verbose_name = "Visitor AI browser library"

    def ready(self) -> None:
        from django.core import checks

        from visitor_ai.speedups.checks import check_speedups

        checks.register(check_speedups)
