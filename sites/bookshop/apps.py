from django.apps import AppConfig


class BookshopConfig(AppConfig):
    name = "sites.bookshop"
    label = "bookshop"
    verbose_name = "Bookshop demo"
    # What the home page lists (sites/home/demos.py).
    demo_title = "Bookshop"
    demo_description = "The visitor's AI (through AI Wallet) recommends books with the shop's own MCP tools."

    def ready(self):
        from sites.bookshop import signals

        signals.connect()
