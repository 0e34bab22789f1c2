from django.apps import AppConfig


class GeographyConfig(AppConfig):
    name = "sites.geography"
    label = "geography"
    verbose_name = "Voice geography game"
