from django.apps import AppConfig


class TwentyQConfig(AppConfig):
    name = "sites.twentyq"
    label = "twentyq"
    verbose_name = "Twenty Questions demo"
