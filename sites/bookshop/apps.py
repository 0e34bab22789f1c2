from django.apps import AppConfig


class BookshopConfig(AppConfig):
    name = "sites.bookshop"
    label = "bookshop"
    verbose_name = "Bookshop demo"

    def ready(self):
        from sites.bookshop import signals

        signals.connect()
