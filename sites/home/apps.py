from django.apps import AppConfig


class HomeConfig(AppConfig):
    name = "sites.home"
    label = "home"
    verbose_name = "Home page"

    def ready(self):
        from sites.home import checks  # noqa: F401  (registers the system checks)
