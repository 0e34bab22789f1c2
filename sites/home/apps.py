from django.apps import AppConfig


class HomeConfig(AppConfig):
    name = "sites.home"
    label = "home"
    verbose_name = "Home page"
