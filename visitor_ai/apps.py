from django.apps import AppConfig


class VisitorAiConfig(AppConfig):
    """The browser library, served from this app's ``static/``."""

    name = "visitor_ai"
    verbose_name = "Visitor AI browser library"
